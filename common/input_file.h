#pragma once
/// @file input_file.h
/// @brief Reading a whole input file (guide, measured CSV, board YAML) with every failure an
///        InputError naming the file: a directory, a missing or unreadable file, or a file larger
///        than the reader accepts (which also stops endless devices such as /dev/zero).
#include <cstddef>
#include <string>

namespace socsim {

/// @brief The whole content of `path`. `what` names the expected kind of file in messages
///        ("guide text file", "measured CSV"). Throws InputError when `path` is a directory,
///        cannot be opened or read, or holds more than `maxBytes` bytes.
std::string readInputFile(const std::string& path, const std::string& what, std::size_t maxBytes);

/// @brief Offset of the first byte of `text` that is not part of well-formed UTF-8
///        (overlong forms, surrogates and code points above U+10FFFF are malformed), or npos.
std::size_t invalidUtf8Offset(const std::string& text);

/// @brief 1-based line number of byte offset `off` in `text`.
int lineOfOffset(const std::string& text, std::size_t off);

}  // namespace socsim
