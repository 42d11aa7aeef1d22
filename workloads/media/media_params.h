#pragma once
/// @file media_params.h
/// @brief Parameters of the Linux media workloads (workloads/media/): the ALSA test set-up and
///        per-period software work, display modes (pixel clock and total timing) and camera
///        sensor modes. Loaded from configs/workloads/media/*.yaml.
#include <cstdint>
#include <map>
#include <string>

#include "common/params.h"

namespace socsim::wl::media {

/// ALSA capture/playback test (arecord/aplay) and the work per period on the Linux core.
struct AlsaParams {
  int channels = 2;                          ///< interleaved channels
  int sample_bits = 16;                      ///< bits per sample (S16_LE)
  int period_frames = 64;                    ///< frames per period (one DMA interrupt each)
  double period_irq_instructions = 1500;     ///< DMA completion + snd_pcm_period_elapsed
  double transfer_call_instructions = 1200;  ///< snd_pcm_readi/writei ioctl body per call
  double app_period_instructions = 2000;     ///< arecord/aplay user code per period
  int file_calls_per_period = 1;             ///< write()/read() of the WAV file per period

  static const params::Schema<AlsaParams>& schema();
};

/// One display mode: pixel clock and total (active + blanking) timing.
struct DisplayMode {
  double pixel_clock_khz = 0;  ///< pixel clock
  int h_active = 0, v_active = 0;
  int h_total = 0, v_total = 0;  ///< pixels per line, lines per frame (incl. blanking)

  static const params::Schema<DisplayMode>& schema();
};

/// One camera sensor output mode. The pixel array reads a frame in
/// line_length_pck x frame_length_lines array clocks; the output port sends each line as
/// out_width x bytes_per_pixel bus clocks. The slower of the two sets the frame rate (the
/// sensor's output FIFO stalls the readout when the port cannot keep up).
struct SensorMode {
  double frame_rate_fps = 0;      ///< nominal rate when the timing below is not known (0 = use it)
  double sensor_clock_mhz = 0;    ///< pixel-array (readout) clock
  int line_length_pck = 0;        ///< array clocks per line (active + horizontal blanking)
  int frame_length_lines = 0;     ///< lines per frame (active + vertical blanking)
  double output_clock_mhz = 0;    ///< output port clock (0 = the port never limits)
  int bytes_per_pixel = 2;        ///< bus clocks per pixel on an 8-bit port (YUV422: 2)
  int out_width = 0, out_height = 0;  ///< what the sensor sends (the capture path may scale)

  static const params::Schema<SensorMode>& schema();
};

struct MediaData {
  AlsaParams alsa;
  std::map<std::string, DisplayMode> hdmiModes;  ///< "640x480@60" -> timing (VESA DMT / CEA / CVT)
  std::map<std::string, DisplayMode> panels;     ///< panel name -> its native mode
  /// sensor name -> (capture resolution or "*" -> sensor mode)
  std::map<std::string, std::map<std::string, SensorMode>> sensors;
};

/// Load configs/workloads/media/{audio,display,sensors}.yaml from `dir`.
/// @throws InputError naming file and line.
MediaData loadMediaData(const std::string& dir);

}  // namespace socsim::wl::media
