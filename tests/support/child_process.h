#pragma once
/// @file child_process.h
/// @brief Run a piece of a test in a forked child process and get back the text it produced.
///        SystemC elaborates one platform per process, so tests that compare configurations (or
///        boards) predict each one in its own child.
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace socsim::test {

/// Fork, run `body` in the child and return the text it returned (empty when the child could
/// not run or write). `body` must not throw.
inline std::string runInChild(const std::function<std::string()>& body) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return {};
  }
  if (pid == 0) {
    close(fd[0]);
    const std::string s = body();
    if (write(fd[1], s.data(), s.size()) < 0) _exit(2);
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return text;
}

}  // namespace socsim::test
