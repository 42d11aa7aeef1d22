#pragma once
/// @file media_workloads.h
/// @brief Linux media rows: ALSA capture/playback (family `audio`), display refresh (`display`)
///        and V4L2 sensor capture (`sensor-capture`).
///
/// - Audio throughput is the stream's own arithmetic, rate x channels x sample bits (the
///   requested rate: where the guides show a rate falling back to another one, the ingest flags
///   the row and the model does not follow it). Audio CPU load is the per-period work (DMA
///   interrupt, ALSA pointer update, the application's wake-up, its read/write ioctl with the
///   period copy through the memory system, the WAV file call) run as kernel paths on the
///   board's core model (workloads/os OsMachine), times periods per second, over the
///   application cores.
/// - Display refresh = pixel clock / (h_total x v_total) of the mode (VESA DMT / CEA-861 / CVT
///   for HDMI, the panel's own timing for LCD); the scan-out DMA bandwidth is reported.
/// - Sensor capture fps = the slower of the pixel array (array clock / (line length x frame
///   length) of the mode the driver programs) and the output port (port clock / (bytes per
///   line x frame length)); the capture DMA bandwidth is reported.
#include <memory>
#include <string>

#include "workloads/cpu/workload_profile.h"
#include "workloads/media/media_params.h"
#include "workloads/os/os_machine.h"
#include "workloads/workload.h"

namespace socsim::wl::media {

class MediaWorkloads : public Workload {
 public:
  explicit MediaWorkloads(std::string dir);
  std::string name() const override { return "media"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

  const MediaData& data() const { return data_; }

 private:
  Prediction audio(RunContext& ctx, const Query& q);
  Prediction display(RunContext& ctx, const Query& q);
  Prediction sensor(RunContext& ctx, const Query& q);

  std::string dir_;
  MediaData data_;
  std::string loadError_;
  cpu::WorkloadProfile kernelProfile_;
  os::CodeRunCache codeRuns_;
};

/// Display refresh rate of a mode, frames per second.
double refreshHz(const DisplayMode& m);
/// Frame rate the pixel array reads out at (frame_rate_fps when the timing is not known).
double sensorArrayFps(const SensorMode& m);
/// Frame rate the output port can send (0 when it does not limit).
double sensorPortFps(const SensorMode& m);
/// Sensor frame rate of a mode, frames per second: the slower of array and port.
double sensorFps(const SensorMode& m);
/// Audio stream bit rate, bits per second.
double audioBitsPerSecond(double rateHz, int channels, int sampleBits);

void registerMediaWorkloads(Registry& r);

}  // namespace socsim::wl::media
