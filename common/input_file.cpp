#include "common/input_file.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace socsim {

std::string readInputFile(const std::string& path, const std::string& what, std::size_t maxBytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, 0, "", "is a directory, not a " + what);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string why = errno ? std::string(": ") + std::strerror(errno) : "";
    throw InputError(path, 0, "", "cannot open " + what + why);
  }
  std::string text;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > maxBytes)
      throw InputError(path, 0, "",
                       "larger than " + std::to_string(maxBytes >> 20) + " MiB: not a " + what);
  }
  if (in.bad()) throw InputError(path, 0, "", "read error: not a readable " + what);
  return text;
}

std::size_t invalidUtf8Offset(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return i;
    std::uint32_t cp = c & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
      if ((s[i + k] >> 6) != 0x2) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    bool overlong =
        (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += len;
  }
  return std::string::npos;
}

int lineOfOffset(const std::string& text, std::size_t off) {
  int line = 1;
  for (std::size_t i = 0; i < off && i < text.size(); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

}  // namespace socsim
