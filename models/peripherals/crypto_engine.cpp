#include "models/peripherals/crypto_engine.h"

namespace socsim::models {

namespace {
struct OpInfo {
  CryptoOp op;
  const char* name;
  int blockBytes;
  int lengthBytes;  ///< hash length field
};
constexpr OpInfo kOps[] = {
    {CryptoOp::Aes, "aes", 16, 0},         {CryptoOp::Des, "des", 8, 0},
    {CryptoOp::Des3, "des3", 8, 0},        {CryptoOp::Md5, "md5", 64, 8},
    {CryptoOp::Sha1, "sha1", 64, 8},       {CryptoOp::Sha224, "sha224", 64, 8},
    {CryptoOp::Sha256, "sha256", 64, 8},   {CryptoOp::Sha384, "sha384", 128, 16},
    {CryptoOp::Sha512, "sha512", 128, 16},
};
const OpInfo& info(CryptoOp op) {
  return kOps[static_cast<int>(op)];
}
}  // namespace

const char* cryptoOpName(CryptoOp op) {
  return info(op).name;
}

std::optional<CryptoOp> cryptoOpFromName(const std::string& name) {
  for (const auto& o : kOps)
    if (name == o.name) return o.op;
  return std::nullopt;
}

int cryptoBlockBytes(CryptoOp op) {
  return info(op).blockBytes;
}

int cryptoRounds(CryptoOp op, int keyBits) {
  switch (op) {
    case CryptoOp::Aes:
      return keyBits >= 256 ? 14 : keyBits >= 192 ? 12 : 10;
    case CryptoOp::Des:
      return 16;
    case CryptoOp::Des3:
      return 48;
    case CryptoOp::Md5:
      return 64;
    case CryptoOp::Sha1:
      return 80;
    case CryptoOp::Sha224:
    case CryptoOp::Sha256:
      return 64;
    case CryptoOp::Sha384:
    case CryptoOp::Sha512:
      return 80;
  }
  return 1;
}

std::uint64_t cryptoBlocks(CryptoOp op, std::uint64_t bytes) {
  const auto& i = info(op);
  const std::uint64_t b = static_cast<std::uint64_t>(i.blockBytes);
  if (!isDigest(op)) return (bytes + b - 1) / b;
  // Message, one 0x80 byte, zeros, the length field: ceil((bytes + 1 + len) / block).
  return (bytes + 1 + static_cast<std::uint64_t>(i.lengthBytes) + b - 1) / b;
}

std::vector<std::pair<std::string, double>> CryptoTiming::parts(const std::string& prefix) const {
  std::vector<std::pair<std::string, double>> v;
  auto add = [&](const char* n, double s) {
    if (s > 0) v.emplace_back(prefix + n, s);
  };
  add(".setup", setupSeconds);
  add(".dma_fill", inputSeconds);
  add(".stream", processSeconds);
  add(".completion", completionSeconds);
  return v;
}

}  // namespace socsim::models
