#include "workloads/media/media_params.h"

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/group_file.h"
#include "soc/config/schema_io.h"

namespace socsim::wl::media {

const params::Schema<AlsaParams>& AlsaParams::schema() {
  using P = AlsaParams;
  static const auto s =
      params::Schema<P>("alsa_test")
          .integer("channels", &P::channels, "count", 1, 64, "interleaved channels",
                   "guides 000-003 ALSA set-up: 'Channels - 2'")
          .integer("sample_bits", &P::sample_bits, "bits", 8, 32, "bits per sample",
                   "guides 000-003 ALSA set-up: 'Format - S16_LE'")
          .integer("period_frames", &P::period_frames, "frames", 1, 1 << 20,
                   "frames per period; the DMA interrupts once per period",
                   "guides 000-003 ALSA set-up: 'Period size - 64'")
          .real("period_irq_instructions", &P::period_irq_instructions, "instructions", 0, 1e7,
                "DMA completion callback, snd_pcm_period_elapsed, hw pointer update and the "
                "wake-up check, per period (kernel paths add the interrupt entry)",
                "calibrated: order of sound/core/pcm_lib.c snd_pcm_update_hw_ptr0 + the DMA "
                "engine's cyclic callback")
          .real("transfer_call_instructions", &P::transfer_call_instructions, "instructions", 0,
                1e7,
                "SNDRV_PCM_IOCTL_READI/WRITEI_FRAMES body per call (avail, wait set-up, "
                "pointer update), copies excluded",
                "calibrated: order of sound/core/pcm_lib.c __snd_pcm_lib_xfer")
          .real("app_period_instructions", &P::app_period_instructions, "instructions", 0, 1e7,
                "arecord/aplay (alsa-utils) user code per period: alsa-lib snd_pcm_readi/writei "
                "wrapper, WAV bookkeeping",
                "calibrated: order of alsa-lib pcm_hw.c + aplay.c pcm_read/pcm_write")
          .integer("file_calls_per_period", &P::file_calls_per_period, "count", 0, 64,
                   "WAV file read()/write() calls per period",
                   "alsa-utils aplay.c: one file write per pcm_read chunk (chunk = period)");
  return s;
}

const params::Schema<DisplayMode>& DisplayMode::schema() {
  using P = DisplayMode;
  static const auto s =
      params::Schema<P>("display_mode")
          .real("pixel_clock_khz", &P::pixel_clock_khz, "kHz", 1, 2e6, "pixel clock",
                "VESA DMT / CEA-861 / panel datasheet (per entry)")
          .required()
          .integer("h_active", &P::h_active, "pixels", 1, 16384, "active pixels per line",
                   "per entry")
          .required()
          .integer("v_active", &P::v_active, "lines", 1, 16384, "active lines", "per entry")
          .required()
          .integer("h_total", &P::h_total, "pixels", 1, 32768,
                   "pixels per line incl. front porch, sync and back porch", "per entry")
          .required()
          .integer("v_total", &P::v_total, "lines", 1, 32768,
                   "lines per frame incl. front porch, sync and back porch", "per entry")
          .required();
  return s;
}

const params::Schema<SensorMode>& SensorMode::schema() {
  using P = SensorMode;
  static const auto s =
      params::Schema<P>("sensor_mode")
          .real("frame_rate_fps", &P::frame_rate_fps, "fps", 0, 1000,
                "nominal frame rate of the mode, used when its timing is not known",
                "sensor datasheet (per entry)")
          .real("sensor_clock_mhz", &P::sensor_clock_mhz, "MHz", 0, 10000,
                "pixel-array readout clock", "sensor driver PLL set-up (per entry)")
          .integer("line_length_pck", &P::line_length_pck, "clocks", 0, 1 << 20,
                   "array clocks per line incl. horizontal blanking", "per entry")
          .integer("frame_length_lines", &P::frame_length_lines, "lines", 0, 1 << 20,
                   "lines per frame incl. vertical blanking", "per entry")
          .real("output_clock_mhz", &P::output_clock_mhz, "MHz", 0, 10000,
                "output port clock; 0 = the port never limits", "sensor driver (per entry)")
          .integer("bytes_per_pixel", &P::bytes_per_pixel, "clocks", 1, 8,
                   "output bus clocks per pixel", "YUV422 on an 8-bit port: 2")
          .integer("out_width", &P::out_width, "pixels", 1, 16384, "width the sensor sends",
                   "per entry")
          .integer("out_height", &P::out_height, "lines", 1, 16384, "height the sensor sends",
                   "per entry");
  return s;
}

namespace {

template <class T>
std::map<std::string, T> readTable(const config::Node& g, const std::string& key) {
  std::map<std::string, T> out;
  for (const auto& [name, node] : g.map) {
    if (name == config::kSourceKey) continue;
    T obj{};
    config::Sources src;
    config::readGroup(T::schema(), obj, node, key + "." + name, key + " '" + name + "'", src);
    out.emplace(name, obj);
  }
  return out;
}

}  // namespace

MediaData loadMediaData(const std::string& dir) {
  MediaData d;
  d.alsa = config::loadGroupFile<AlsaParams>(dir + "/audio.yaml", "alsa_test");
  {
    const std::string f = dir + "/display.yaml";
    const config::Node root = config::loadMapFile(f);
    d.hdmiModes = readTable<DisplayMode>(config::requireGroup(root, f, "hdmi_modes"), "hdmi_modes");
    d.panels = readTable<DisplayMode>(config::requireGroup(root, f, "panels"), "panels");
  }
  {
    const std::string f = dir + "/sensors.yaml";
    const config::Node root = config::loadMapFile(f);
    const config::Node& g = config::requireGroup(root, f, "sensors");
    for (const auto& [name, node] : g.map) {
      if (name == config::kSourceKey) continue;
      if (!node.isMap())
        throw InputError(node.file, node.line, "sensors." + name, "expected a map");
      d.sensors[name] = readTable<SensorMode>(node, "sensors." + name);
    }
  }
  return d;
}

}  // namespace socsim::wl::media
