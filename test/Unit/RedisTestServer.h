//===- RedisTestServer.h - A redis-server for unit tests --------*- C++ -*-===//
//
// Starts a real redis-server on a free port of 127.0.0.1 in a temporary
// folder (killed and removed on destruction), and a minimal RESP client to
// plant and inspect values: what the fleet-cache tests
// (Runtime/RemoteCacheTest.cpp, Compiler/EntryStoreTest.cpp) run against.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TEST_UNIT_REDISTESTSERVER_H
#define TILEC_TEST_UNIT_REDISTESTSERVER_H

#include <arpa/inet.h>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace tilec::testing {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// A cache key (16 hex digits) made from `name`.
inline std::string findRedisServer() {
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && ::access((dir + "/redis-server").c_str(), X_OK) == 0)
        return dir + "/redis-server";
  }
  if (::access("/usr/bin/redis-server", X_OK) == 0)
    return "/usr/bin/redis-server";
  return {};
}

/// A TCP port on 127.0.0.1 that nothing listens on (just now).
inline int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = -1;
  if (::bind(fd, (sockaddr *)&addr, sizeof addr) == 0 &&
      ::getsockname(fd, (sockaddr *)&addr, &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

inline int connectTo(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (::connect(fd, (sockaddr *)&addr, sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// Sends one command to the server at `port` on a fresh connection and
/// returns its reply: a bulk string as "$" + its bytes ("$-1" for nil),
/// anything else as its first line ("+OK", ":1", "-ERR ..."); "" if the
/// server could not be reached.
inline std::string raw(int port, const std::vector<std::string> &args) {
  int fd = connectTo(port);
  if (fd < 0)
    return "";
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string &a : args)
    out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  for (size_t done = 0; done < out.size();) {
    ssize_t n = ::write(fd, out.data() + done, out.size() - done);
    if (n <= 0) {
      ::close(fd);
      return "";
    }
    done += size_t(n);
  }
  std::string in;
  auto readMore = [&] {
    char buf[65536];
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0)
      return false;
    in.append(buf, size_t(n));
    return true;
  };
  size_t eol;
  while ((eol = in.find("\r\n")) == std::string::npos)
    if (!readMore()) {
      ::close(fd);
      return "";
    }
  std::string line = in.substr(0, eol);
  if (line[0] != '$' || line == "$-1") {
    ::close(fd);
    return line;
  }
  size_t length = std::stoul(line.substr(1));
  while (in.size() < eol + 2 + length + 2)
    if (!readMore()) {
      ::close(fd);
      return "";
    }
  ::close(fd);
  return "$" + in.substr(eol + 2, length);
}

/// A redis-server process in a temporary directory, killed on destruction.
class RedisServer {
public:
  ~RedisServer() {
    stop();
    if (!dir.empty()) {
      std::string cmd = "rm -rf '" + dir + "'";
      (void)std::system(cmd.c_str());
    }
  }

  /// Starts `binary` on `port` (a free one if 0) and waits for a PONG.
  bool start(const std::string &binary, std::string &why, int wanted = 0) {
    if (dir.empty()) {
      char tmpl[] = "/tmp/tilec-redis-test-XXXXXX";
      if (!::mkdtemp(tmpl)) {
        why = "mkdtemp failed";
        return false;
      }
      dir = tmpl;
    }
    port = wanted ? wanted : freePort();
    std::string portText = std::to_string(port), log = dir + "/redis.log";
    std::vector<std::string> args = {
        binary,   "--save",      "",       "--appendonly", "no",
        "--port", portText,      "--bind", "127.0.0.1",    "--dir",
        dir,      "--daemonize", "no"};
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    int rc = ::posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(),
                           environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      pid = -1;
      why = "cannot start " + binary;
      return false;
    }
    for (auto t0 = Clock::now(); msSince(t0) < 5000;) {
      if (raw(port, {"PING"}) == "+PONG")
        return true;
      int status;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        std::ifstream in(log);
        std::stringstream text;
        text << in.rdbuf();
        why = "redis-server exited: " + text.str();
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    why = "redis-server did not answer PING within 5 s";
    return false;
  }

  void stop() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      pid = -1;
    }
  }

  int port = 0;

private:
  pid_t pid = -1;
  std::string dir;
};


} // namespace tilec::testing

#endif // TILEC_TEST_UNIT_REDISTESTSERVER_H
