#include "workloads/media/media_workloads.h"

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "models/cpu/core_memory.h"
#include "soc/config/board_config.h"
#include "workloads/storage/storage_case.h"

namespace socsim::wl::media {

double refreshHz(const DisplayMode& m) {
  return m.pixel_clock_khz * 1e3 / (static_cast<double>(m.h_total) * m.v_total);
}
double sensorArrayFps(const SensorMode& m) {
  if (m.sensor_clock_mhz <= 0 || m.line_length_pck <= 0 || m.frame_length_lines <= 0)
    return m.frame_rate_fps;
  return m.sensor_clock_mhz * 1e6 / (static_cast<double>(m.line_length_pck) * m.frame_length_lines);
}
double sensorPortFps(const SensorMode& m) {
  if (m.output_clock_mhz <= 0 || m.out_width <= 0 || m.frame_length_lines <= 0) return 0;
  return m.output_clock_mhz * 1e6 /
         (static_cast<double>(m.out_width) * m.bytes_per_pixel * m.frame_length_lines);
}
double sensorFps(const SensorMode& m) {
  const double array = sensorArrayFps(m), port = sensorPortFps(m);
  return port > 0 ? std::min(array, port) : array;
}
double audioBitsPerSecond(double rateHz, int channels, int sampleBits) {
  return rateHz * channels * sampleBits;
}

namespace {

std::string g3(double v) {
  return formatSig(v, 3);
}

const soc::PeripheralParams* findPeripheral(const soc::BoardConfig& b,
                                            std::initializer_list<const char*> ips) {
  for (const auto& p : b.peripherals)
    for (const char* ip : ips)
      if (p.ip == ip) return &p;
  return nullptr;
}

/// Bytes per second a DMA master can move to/from DDR: the lower of the interconnect's data
/// path (clock x width) and the DRAM's peak (data rate x bus width x channels).
double dmaCeilingBytesPerSecond(const soc::BoardConfig& b) {
  double c = b.interconnect.clock_mhz * 1e6 * b.interconnect.width_bytes;
  if (b.dram) c = std::min(c, b.dram->peakBytesPerSecond());
  return c;
}

std::string param(const std::map<std::string, std::string>& m, const char* k) {
  auto it = m.find(k);
  if (it == m.end()) throw NotModelled{std::string("params carry no ") + k};
  return it->second;
}

}  // namespace

MediaWorkloads::MediaWorkloads(std::string dir) : dir_(std::move(dir)) {
  try {
    data_ = loadMediaData(dir_);
    kernelProfile_ = cpu::loadProfile(configsDir() + "/workloads/os/base/kernel.yaml");
  } catch (const InputError& e) {
    loadError_ = e.what();
  } catch (const std::exception& e) {
    loadError_ = std::string("loading media workload data: ") + e.what();
  }
}

bool MediaWorkloads::covers(const Query& q) const {
  return q.family == "audio" || q.family == "display" || q.family == "sensor-capture";
}

Prediction MediaWorkloads::predict(RunContext& ctx, const Query& q) {
  if (!loadError_.empty()) throw InputError(dir_, 0, "", loadError_);
  if (q.family == "audio") return audio(ctx, q);
  if (q.family == "display") return display(ctx, q);
  return sensor(ctx, q);
}

Prediction MediaWorkloads::audio(RunContext& ctx, const Query& q) {
  const soc::BoardConfig& b = ctx.board();
  if (!findPeripheral(b, {"mcasp"}))
    throw NotModelled{"board " + b.board.name + " lists no McASP audio port"};
  const auto params = storage::parseParams(q.params);
  const double fs = std::stod(param(params, "sampling_rate"));
  const AlsaParams& a = data_.alsa;
  const double bps = audioBitsPerSecond(fs, a.channels, a.sample_bits);
  Prediction p;
  if (q.metric == "Throughput") {
    if (q.unit != "bit/s") throw NotModelled{"unit " + q.unit};
    p.value = bps;
    p.configEcho = "the stream's requested rate x channels x sample bits";
    p.breakdown.add("mcasp.frame", 1.0 / fs);
    p.note = "requested rate x " + std::to_string(a.channels) + " ch x " +
             std::to_string(a.sample_bits) +
             " bit; a codec clock that falls back to another rate (flagged in the data) is "
             "not followed";
    return p;
  }
  if (q.metric != "CPU Load" || q.unit != "%") throw NotModelled{"metric " + q.metric};
  if (b.software.stack != "linux" && b.software.stack != "linux-rt")
    throw NotModelled{"board runs " + b.software.stack + ", not Linux"};
  os::OsMachine m(ctx, b.software.kernel_paths, kernelProfile_, codeRuns_);
  const os::KernelPathParams& k = m.kernel();
  const bool capture = q.benchmark.find("Capture") != std::string::npos;
  const std::uint64_t periodBytes =
      static_cast<std::uint64_t>(a.period_frames) * a.channels * a.sample_bits / 8;
  // Per period: the DMA interrupt and ALSA's pointer update wake the application, which
  // returns from its readi/writei ioctl with one period copied, writes/reads it to/from the
  // WAV file, and blocks again (switch to the application and back to idle).
  // PREEMPT_RT: the hard interrupt wakes a threaded handler (irq_thread_instructions, 0 on a
  // non-RT kernel).
  os::CodeWork kernel =
      os::path(k.irq_instructions + k.irq_thread_instructions + a.period_irq_instructions);
  kernel += os::path(k.wakeup_instructions + 2 * k.switch_instructions + k.block_instructions);
  kernel += os::path(k.trap_instructions + k.fd_instructions + a.transfer_call_instructions, 1, 1);
  kernel +=
      os::times(os::path(k.trap_instructions + k.fd_instructions + k.vfs_rw_instructions, 1, 1),
                a.file_calls_per_period);
  // Warm code also on ARMv5's virtually tagged L1s: the switches go to the idle task and back,
  // and idle borrows the application's mm (lazy TLB), so switch_mm never flushes them.
  os::Timed t = m.code(kernel);
  t.add(m.code(os::path(a.app_period_instructions), true));
  // The period copy between the DMA buffer and the user buffer (copy_to/from_user), and the
  // file call's copy of the same bytes.
  const std::uint64_t dmaBuf = 0x48000000ull, userBuf = 0x48100000ull, fileBuf = 0x48200000ull;
  const double copies = 1 + a.file_calls_per_period;
  os::Timed c = m.job(
      [&](models::CoreMemory& cm) {
        if (capture) {
          cm.memcpy(userBuf, dmaBuf, periodBytes);
          for (int i = 0; i < a.file_calls_per_period; ++i)
            cm.memcpy(fileBuf, userBuf, periodBytes);
        } else {
          for (int i = 0; i < a.file_calls_per_period; ++i)
            cm.memcpy(userBuf, fileBuf, periodBytes);
          cm.memcpy(dmaBuf, userBuf, periodBytes);
        }
      },
      "copy", false);
  t.add(c);
  const double periodsPerSecond = fs / a.period_frames;
  const double cores = static_cast<double>(m.cores().size());
  p.value = 100.0 * periodsPerSecond * t.seconds / cores;
  for (const auto& [n, s] : t.parts) p.breakdown.add(n, s * periodsPerSecond / cores);
  p.note = g3(periodsPerSecond) + " periods/s of " + std::to_string(a.period_frames) + " frames; " +
           g3(t.seconds * 1e6) + " us CPU per period (" + g3(copies) + " copies of " +
           std::to_string(periodBytes) + " B) over " + g3(cores) + " cores";
  return p;
}

Prediction MediaWorkloads::display(RunContext& ctx, const Query& q) {
  const soc::BoardConfig& b = ctx.board();
  if (q.unit != "fps") throw NotModelled{"unit " + q.unit};
  const auto params = storage::parseParams(q.params);
  const std::string mode = param(params, "mode");
  const DisplayMode* dm = nullptr;
  std::string what;
  if (q.benchmark.find("LCD") != std::string::npos) {
    const soc::PeripheralParams* lcd = findPeripheral(b, {"lcdc", "dss"});
    if (!lcd || lcd->device.empty())
      throw NotModelled{"board " + b.board.name + " names no LCD panel on its display controller"};
    auto it = data_.panels.find(lcd->device);
    if (it == data_.panels.end()) throw NotModelled{"no timing for panel '" + lcd->device + "'"};
    dm = &it->second;
    const std::string size = mode.substr(0, mode.find('@'));
    if (size != std::to_string(dm->h_active) + "x" + std::to_string(dm->v_active))
      throw NotModelled{"mode " + mode + " is not panel " + lcd->device + "'s native mode"};
    what = "panel " + lcd->device;
  } else if (q.benchmark.find("HDMI") != std::string::npos) {
    if (!findPeripheral(b, {"lcdc", "dss"}))
      throw NotModelled{"board " + b.board.name + " lists no display controller"};
    auto it = data_.hdmiModes.find(mode);
    if (it == data_.hdmiModes.end()) throw NotModelled{"no timing for HDMI mode " + mode};
    dm = &it->second;
    what = "HDMI mode " + mode;
  } else {
    throw NotModelled{"display output of '" + q.benchmark + "'"};
  }
  Prediction p;
  p.value = refreshHz(*dm);
  p.configEcho = "the display mode's refresh rate (pixel clock / total pixels)";
  const double active = static_cast<double>(dm->h_active) * dm->v_active;
  const double total = static_cast<double>(dm->h_total) * dm->v_total;
  p.breakdown.add("display.active", active / (dm->pixel_clock_khz * 1e3));
  p.breakdown.add("display.blanking", (total - active) / (dm->pixel_clock_khz * 1e3));
  const double scanout = active * 4 * p.value;  // 32-bit frame buffer
  const double ceiling = dmaCeilingBytesPerSecond(b);
  if (scanout > ceiling)
    throw NotModelled{what + ": scan-out needs " + g3(scanout / 1e6) + " MB/s, above the " +
                      g3(ceiling / 1e6) + " MB/s the DMA path to DDR moves (underflow)"};
  p.note = what + ": " + g3(dm->pixel_clock_khz / 1e3) + " MHz / (" + std::to_string(dm->h_total) +
           " x " + std::to_string(dm->v_total) + "); scan-out of a 32-bit frame buffer reads " +
           g3(scanout / 1e6) + " MB/s = " + g3(100 * scanout / ceiling) +
           " % of the interconnect/DDR ceiling";
  return p;
}

Prediction MediaWorkloads::sensor(RunContext& ctx, const Query& q) {
  const soc::BoardConfig& b = ctx.board();
  if (q.unit != "fps") throw NotModelled{"unit " + q.unit};
  if (!findPeripheral(b, {"vip", "cal", "csi2rx"}))
    throw NotModelled{"board " + b.board.name + " lists no camera capture port"};
  const auto params = storage::parseParams(q.params);
  const std::string name = param(params, "sensor");
  const std::string res = param(params, "resolution");
  auto s = data_.sensors.find(name);
  if (s == data_.sensors.end()) throw NotModelled{"no modes for sensor '" + name + "'"};
  auto m = s->second.find(res);
  if (m == s->second.end()) m = s->second.find("*");
  if (m == s->second.end()) throw NotModelled{"sensor " + name + " has no mode for " + res};
  const SensorMode& sm = m->second;
  Prediction p;
  const double array = sensorArrayFps(sm), port = sensorPortFps(sm);
  const bool portBound = port > 0 && port < array;
  // The capture DMA writes each frame to DDR; a frame it cannot store in time is dropped.
  const double bytes = static_cast<double>(sm.out_width) * sm.out_height * sm.bytes_per_pixel;
  const double dmaFps = bytes > 0 ? dmaCeilingBytesPerSecond(b) / bytes : 0;
  p.value = sensorFps(sm);
  if (dmaFps > 0 && dmaFps < p.value) p.value = dmaFps;
  p.breakdown.add(dmaFps > 0 && dmaFps <= p.value
                      ? "capture.dma"
                      : (portBound ? "sensor.output_port" : "sensor.array_readout"),
                  1.0 / p.value);
  p.note =
      name +
      (sm.sensor_clock_mhz > 0
           ? " array " + g3(sm.sensor_clock_mhz) + " MHz / (" + std::to_string(sm.line_length_pck) +
                 " x " + std::to_string(sm.frame_length_lines) + ") = " + g3(array) + " fps"
           : " nominal " + g3(sm.frame_rate_fps) + " fps (timing not known)") +
      (port > 0 ? ", output port " + g3(port) + " fps" : "") + "; capture DMA writes " +
      g3(bytes * p.value / 1e6) + " MB/s";
  return p;
}

void registerMediaWorkloads(Registry& r) {
  r.add(std::make_unique<MediaWorkloads>(configsDir() + "/workloads/media"));
}

}  // namespace socsim::wl::media
