//===- RemoteCacheTest.cpp - The fleet cache against a real redis-server --===//
//
// tilec::RemoteCache (runtime/include/tilec/RemoteCache.h): URL parsing (no
// server), then against a redis-server each test starts on a free port
// (skipped where redis-server or libhiredis is missing): binary round trips,
// misses, damaged, foreign and oversized values, key prefixes and databases,
// a server killed mid-test (an error within the timeout, then failing fast
// for the retry window, then recovering), an unreachable and a hung server,
// and 8 threads at once. Values are planted and inspected with a small RESP
// client of the test's own, so the test needs no hiredis headers.
//
//===----------------------------------------------------------------------===//

#include "tilec/RemoteCache.h"
#include "../RedisTestServer.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdio>
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

using namespace tilec;
using namespace tilec::testing;

namespace {

std::string keyOf(const std::string &name) {
  char buf[17];
  std::snprintf(
      buf, sizeof buf, "%016llx",
      (unsigned long long)(std::hash<std::string>()(name) | (1ull << 60)));
  return buf;
}

/// Whether hiredis can be loaded here (open of a good URL succeeds).
bool haveHiredis(std::string &why) {
  std::unique_ptr<RemoteCache> cache;
  Status s = RemoteCache::open("redis://127.0.0.1", {}, cache);
  why = s.message();
  return s.ok();
}

//===----------------------------------------------------------------------===//
// URLs (no server, no hiredis)
//===----------------------------------------------------------------------===//

TEST(RemoteCacheUrl, ParsesHostPortAndDatabase) {
  struct Case {
    const char *url, *host;
    unsigned port, db;
  } cases[] = {
      {"redis://localhost", "localhost", 6379, 0},
      {"redis://localhost/", "localhost", 6379, 0},
      {"redis://10.0.0.5:7000", "10.0.0.5", 7000, 0},
      {"redis://cache-01.example_net.com:6380/3", "cache-01.example_net.com",
       6380, 3},
      {"redis://[::1]", "::1", 6379, 0},
      {"redis://[fe80::1:2]:16379/15", "fe80::1:2", 16379, 15},
      {"redis://h:65535/0", "h", 65535, 0},
  };
  for (const Case &c : cases) {
    RemoteCache::Endpoint e;
    Status s = RemoteCache::parseUrl(c.url, e);
    ASSERT_TRUE(s.ok()) << c.url << ": " << s.message();
    EXPECT_EQ(e.host, c.host) << c.url;
    EXPECT_EQ(e.port, c.port) << c.url;
    EXPECT_EQ(e.db, c.db) << c.url;
  }
}

TEST(RemoteCacheUrl, RejectsMalformedUrlsSayingWhatWasExpected) {
  struct Case {
    const char *url, *why;
  } cases[] = {
      {"", "does not start with redis://"},
      {"localhost:6379", "does not start with redis://"},
      {"http://localhost", "does not start with redis://"},
      {"rediss://localhost", "TLS (rediss://) is not supported"},
      {"redis://", "no host"},
      {"redis://:6379", "no host"},
      {"redis:///0", "no host"},
      {"redis://user:pw@host", "user names and passwords are not supported"},
      {"redis://host?db=1", "parameters are not supported"},
      {"redis://host:0", "the port must be 1 to 65535, found '0'"},
      {"redis://host:65536", "the port must be 1 to 65535, found '65536'"},
      {"redis://host:", "the port must be 1 to 65535, found ''"},
      {"redis://host:63x9", "the port must be 1 to 65535, found '63x9'"},
      {"redis://host:6379:1", "found '6379:1'"},
      {"redis://host/x", "the database must be a number, found 'x'"},
      {"redis://host/1/2", "the database must be a number, found '1/2'"},
      {"redis://host/-1", "the database must be a number, found '-1'"},
      {"redis://[::1", "'[' without ']'"},
      {"redis://[]:1", "'' is not an IPv6 address"},
      {"redis://[example.com]", "'example.com' is not an IPv6 address"},
      {"redis://[::1]x", "unexpected 'x' after the host"},
      {"redis://ho st", "'ho st' is not a host name or address"},
      {"redis://h\xc3\xa9st", "is not a host name or address"},
  };
  for (const Case &c : cases) {
    RemoteCache::Endpoint e;
    Status s = RemoteCache::parseUrl(c.url, e);
    ASSERT_FALSE(s.ok()) << "'" << c.url << "' was accepted";
    EXPECT_NE(s.message().find(c.why), std::string::npos)
        << c.url << ": " << s.message();
    EXPECT_NE(s.message().find("(expected redis://HOST[:PORT][/DB])"),
              std::string::npos)
        << s.message();
    // open() refuses it the same way, before looking for hiredis.
    std::unique_ptr<RemoteCache> cache;
    Status o = RemoteCache::open(c.url, {}, cache);
    EXPECT_EQ(o.message(), s.message());
    EXPECT_FALSE(cache);
  }
}

TEST(RemoteCacheUrl, OpenNormalizesTheUrlWithoutConnecting) {
  std::string why;
  if (!haveHiredis(why))
    GTEST_SKIP() << why;
  std::pair<const char *, const char *> cases[] = {
      {"redis://localhost", "redis://localhost:6379/0"},
      {"redis://10.1.2.3:7000/", "redis://10.1.2.3:7000/0"},
      {"redis://[::1]:6380/2", "redis://[::1]:6380/2"},
      // Nothing listens there: open does not connect.
      {"redis://no-such-host.invalid:1/9", "redis://no-such-host.invalid:1/9"},
  };
  for (auto [url, normalized] : cases) {
    std::unique_ptr<RemoteCache> cache;
    Status s = RemoteCache::open(url, {}, cache);
    ASSERT_TRUE(s.ok()) << url << ": " << s.message();
    EXPECT_EQ(cache->url(), normalized);
  }
  RemoteCache::Options o;
  o.timeoutMs = 0;
  std::unique_ptr<RemoteCache> cache;
  Status s = RemoteCache::open("redis://localhost", o, cache);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("timeout"), std::string::npos) << s.message();
}

TEST(RemoteCacheUrl, AnUnloadableHiredisIsAClearError) {
  const char *old = std::getenv("TILEC_HIREDIS_LIBRARY");
  std::string saved = old ? old : "";
  ::setenv("TILEC_HIREDIS_LIBRARY", "/nonexistent/libhiredis.so.0.14", 1);
  std::unique_ptr<RemoteCache> cache;
  Status s = RemoteCache::open("redis://localhost", {}, cache);
  if (old)
    ::setenv("TILEC_HIREDIS_LIBRARY", saved.c_str(), 1);
  else
    ::unsetenv("TILEC_HIREDIS_LIBRARY");
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(cache);
  EXPECT_NE(s.message().find("the fleet cache needs libhiredis: "
                             "TILEC_HIREDIS_LIBRARY "
                             "'/nonexistent/libhiredis.so.0.14' could not be "
                             "loaded"),
            std::string::npos)
      << s.message();
}

//===----------------------------------------------------------------------===//
// Against a server
//===----------------------------------------------------------------------===//

class RemoteCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    binary = findRedisServer();
    if (binary.empty())
      GTEST_SKIP() << "no redis-server on PATH or in /usr/bin (Debian: apt "
                      "install redis-server); fleet cache tests skipped";
    std::string why;
    if (!haveHiredis(why))
      GTEST_SKIP() << why;
    ASSERT_TRUE(server.start(binary, why)) << why;
  }

  std::string url(unsigned db = 0) const {
    return "redis://127.0.0.1:" + std::to_string(server.port) + "/" +
           std::to_string(db);
  }

  std::unique_ptr<RemoteCache> open(RemoteCache::Options o = {},
                                    unsigned db = 0) {
    std::unique_ptr<RemoteCache> cache;
    Status s = RemoteCache::open(url(db), o, cache);
    EXPECT_TRUE(s.ok()) << s.message();
    return cache;
  }

  std::string raw(const std::vector<std::string> &args) {
    return ::raw(server.port, args);
  }

  std::string binary;
  RedisServer server;
};

std::string binaryPayload(size_t n, unsigned seed) {
  std::string p(n, '\0');
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    p[i] = char(x >> 24);
  }
  return p;
}

TEST_F(RemoteCacheTest, RoundTripsBinaryPayloads) {
  auto cache = open();
  std::string withNuls("\0cubin\0\xff\x01\0", 11);
  for (int i = 0; i < 1024; ++i)
    withNuls.push_back(char(i & 0xff));
  std::vector<std::pair<std::string, std::string>> values = {
      {keyOf("nuls"), withNuls},
      {keyOf("empty"), ""},
      {keyOf("big"), binaryPayload(3 << 20, 7)},
      {std::string(128, 'f'), "the longest key"},
  };
  for (auto &[key, payload] : values)
    ASSERT_TRUE(cache->put(key, payload).ok()) << key;
  for (auto &[key, payload] : values) {
    std::optional<std::string> out;
    std::string note = "stale";
    Status s = cache->get(key, out, &note);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(out.has_value()) << key;
    EXPECT_EQ(*out, payload) << key;
    EXPECT_EQ(note, "");
  }
  // The Redis key is the prefix and the cache key; the value has a header.
  std::string stored = raw({"GET", "tilec:" + keyOf("nuls")});
  ASSERT_EQ(stored.substr(0, 8), std::string("$TILECR\1", 8));
  EXPECT_EQ(stored.substr(stored.size() - withNuls.size()), withNuls);
  // A second put replaces the value.
  ASSERT_TRUE(cache->put(keyOf("nuls"), "replaced").ok());
  std::optional<std::string> out;
  ASSERT_TRUE(cache->get(keyOf("nuls"), out).ok());
  EXPECT_EQ(out.value_or("<miss>"), "replaced");
}

TEST_F(RemoteCacheTest, AMissIsOkAndEmpty) {
  auto cache = open();
  std::optional<std::string> out = std::string("stale");
  std::string note = "stale";
  Status s = cache->get(keyOf("never stored"), out, &note);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(out.has_value());
  EXPECT_EQ(note, "");
  EXPECT_TRUE(cache->get(keyOf("never stored"), out).ok()); // no note wanted
}

TEST_F(RemoteCacheTest, InvalidKeysAreRefused) {
  auto cache = open();
  for (std::string key :
       {std::string("../../etc/passwd"), std::string("0123456789ABCDEF"),
        std::string("abc"), std::string(129, 'a'), std::string("tilec:*")}) {
    std::optional<std::string> out;
    Status g = cache->get(key, out);
    EXPECT_FALSE(g.ok()) << key;
    EXPECT_NE(g.message().find("invalid cache key"), std::string::npos);
    Status p = cache->put(key, "x");
    EXPECT_FALSE(p.ok()) << key;
    EXPECT_NE(p.message().find("invalid cache key"), std::string::npos);
  }
  EXPECT_EQ(raw({"DBSIZE"}), ":0");
  // Refusing a key is not a failure of the server: no retry window.
  EXPECT_TRUE(cache->put(keyOf("fine"), "x").ok());
}

TEST_F(RemoteCacheTest, DamagedValuesAreMissesWithANoteAndDeleted) {
  auto cache = open();
  std::string key = keyOf("damaged"), redisKey = "tilec:" + key;
  std::string payload = binaryPayload(4096, 3);
  ASSERT_TRUE(cache->put(key, payload).ok());
  std::string good = raw({"GET", redisKey}).substr(1);
  ASSERT_GT(good.size(), payload.size());

  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 0x20;
  std::string otherVersion = good;
  otherVersion[6] = '\2';
  struct Case {
    const char *what;
    std::string value, why;
  } cases[] = {
      {"garbage", "garbage", "is not a tilec fleet cache value"},
      {"empty", "", "is not a tilec fleet cache value"},
      {"disk entry", std::string("TILECC\1\0", 8) + good.substr(8),
       "is not a tilec fleet cache value"},
      {"format 2", otherVersion, "is not a tilec fleet cache value"},
      {"header only", good.substr(0, 20), "is truncated"},
      {"short payload", good.substr(0, good.size() - 1), "is truncated"},
      {"long payload", good + "x", "has trailing bytes"},
      {"flipped byte", flipped, "fails its checksum"},
  };
  for (const Case &c : cases) {
    ASSERT_EQ(raw({"SET", redisKey, c.value}), "+OK");
    std::optional<std::string> out;
    std::string note;
    Status s = cache->get(key, out, &note);
    ASSERT_TRUE(s.ok()) << c.what << ": " << s.message();
    EXPECT_FALSE(out.has_value()) << c.what;
    EXPECT_NE(note.find(c.why), std::string::npos) << c.what << ": " << note;
    EXPECT_NE(note.find("'" + redisKey + "'"), std::string::npos) << note;
    EXPECT_NE(note.find("; deleted"), std::string::npos) << note;
    EXPECT_EQ(raw({"EXISTS", redisKey}), ":0") << c.what;
  }
  // A key holding a list: also a miss, deleted.
  ASSERT_EQ(raw({"RPUSH", redisKey, "x"}), ":1");
  std::optional<std::string> out;
  std::string note;
  ASSERT_TRUE(cache->get(key, out, &note).ok());
  EXPECT_FALSE(out.has_value());
  EXPECT_NE(note.find("another type"), std::string::npos) << note;
  EXPECT_EQ(raw({"EXISTS", redisKey}), ":0");
  // And the cache still works.
  ASSERT_TRUE(cache->put(key, payload).ok());
  ASSERT_TRUE(cache->get(key, out, &note).ok());
  EXPECT_EQ(out.value_or(""), payload);
}

TEST_F(RemoteCacheTest, AValueOfAnotherKeyIsAMiss) {
  auto cache = open();
  std::string a = keyOf("a"), b = keyOf("b");
  ASSERT_TRUE(cache->put(a, "kernel a").ok());
  // Copied under b (a confused or malicious writer): b's lookup must not
  // return a's kernel.
  std::string value = raw({"GET", "tilec:" + a}).substr(1);
  ASSERT_EQ(raw({"SET", "tilec:" + b, value}), "+OK");
  std::optional<std::string> out;
  std::string note;
  ASSERT_TRUE(cache->get(b, out, &note).ok());
  EXPECT_FALSE(out.has_value());
  EXPECT_NE(note.find("holds another key"), std::string::npos) << note;
  EXPECT_EQ(raw({"EXISTS", "tilec:" + b}), ":0");
  ASSERT_TRUE(cache->get(a, out).ok());
  EXPECT_EQ(out.value_or(""), "kernel a");
}

TEST_F(RemoteCacheTest, ValuesOverTheLimitAreRefusedAndIgnored) {
  RemoteCache::Options small;
  small.maxValueBytes = 1000;
  auto limited = open(small), unlimited = open();
  std::string key = keyOf("large");
  Status s = limited->put(key, std::string(1001, 'x'));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("1001 bytes is larger than 1000 bytes"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(raw({"EXISTS", "tilec:" + key}), ":0");
  ASSERT_TRUE(limited->put(keyOf("fits"), std::string(1000, 'x')).ok());

  // Stored by a process with a larger limit: a miss here, left in place.
  ASSERT_TRUE(unlimited->put(key, std::string(5000, 'y')).ok());
  std::optional<std::string> out;
  std::string note;
  ASSERT_TRUE(limited->get(key, out, &note).ok());
  EXPECT_FALSE(out.has_value());
  EXPECT_NE(note.find("is larger than 1000 bytes"), std::string::npos) << note;
  EXPECT_EQ(raw({"EXISTS", "tilec:" + key}), ":1");
  ASSERT_TRUE(limited->get(keyOf("fits"), out).ok());
  EXPECT_EQ(out.value_or("").size(), 1000u);
}

TEST_F(RemoteCacheTest, PrefixesAndDatabasesKeepValuesApart) {
  RemoteCache::Options other;
  other.keyPrefix = "other/";
  auto a = open(), b = open(other), c = open({}, 1);
  std::string key = keyOf("shared");
  ASSERT_TRUE(a->put(key, "from a").ok());
  ASSERT_TRUE(c->put(key, "from c").ok());
  std::optional<std::string> out;
  ASSERT_TRUE(b->get(key, out).ok());
  EXPECT_FALSE(out.has_value());
  ASSERT_TRUE(a->get(key, out).ok());
  EXPECT_EQ(out.value_or(""), "from a");
  ASSERT_TRUE(c->get(key, out).ok());
  EXPECT_EQ(out.value_or(""), "from c");
  EXPECT_EQ(raw({"EXISTS", "tilec:" + key}), ":1"); // database 0
  EXPECT_EQ(raw({"DBSIZE"}), ":1");
}

TEST_F(RemoteCacheTest, AKilledServerFailsFastThenRecovers) {
  RemoteCache::Options o;
  o.timeoutMs = 500;
  o.retryAfterMs = 600;
  auto cache = open(o);
  std::string key = keyOf("k");
  ASSERT_TRUE(cache->put(key, "v").ok());
  int port = server.port;
  server.stop();

  // The open connection fails: an error within the timeout.
  std::optional<std::string> out;
  auto t0 = Clock::now();
  Status s = cache->get(key, out);
  double first = msSince(t0);
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(out.has_value());
  EXPECT_LT(first, o.timeoutMs + 500.0);
  EXPECT_NE(s.message().find("fleet cache " + url()), std::string::npos)
      << s.message();
  auto failedAt = Clock::now();

  // The server is back at once, but inside the window nothing is tried.
  std::string why;
  ASSERT_TRUE(server.start(binary, why, port)) << why;
  t0 = Clock::now();
  s = cache->get(key, out);
  ASSERT_FALSE(s.ok());
  EXPECT_LT(msSince(t0), 50.0);
  EXPECT_NE(s.message().find("unavailable until"), std::string::npos)
      << s.message();
  s = cache->put(key, "v");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unavailable until"), std::string::npos);

  // After the window, the cache connects again (the new server is empty).
  std::this_thread::sleep_until(failedAt + std::chrono::milliseconds(650));
  s = cache->get(key, out);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(out.has_value());
  ASSERT_TRUE(cache->put(key, "again").ok());
  ASSERT_TRUE(cache->get(key, out).ok());
  EXPECT_EQ(out.value_or(""), "again");
}

TEST_F(RemoteCacheTest, EightThreadsAtOnce) {
  auto cache = open();
  std::string shared = keyOf("shared");
  ASSERT_TRUE(cache->put(shared, binaryPayload(10000, 1)).ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        std::string key =
            keyOf("t" + std::to_string(t) + "." + std::to_string(i % 5));
        std::string payload = binaryPayload(1000 + 97 * i, t * 100 + i);
        std::optional<std::string> out;
        std::string note;
        if (!cache->put(key, payload).ok() ||
            !cache->get(key, out, &note).ok() || out != payload ||
            !note.empty() || !cache->get(shared, out).ok() ||
            out != binaryPayload(10000, 1))
          ++failures;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(raw({"DBSIZE"}), ":41");
}

//===----------------------------------------------------------------------===//
// Servers that are not there
//===----------------------------------------------------------------------===//

TEST(RemoteCacheNetwork, AnUnreachablePortIsAnErrorWithinTheTimeout) {
  std::string why;
  if (!haveHiredis(why))
    GTEST_SKIP() << why;
  RemoteCache::Options o;
  o.timeoutMs = 300;
  std::unique_ptr<RemoteCache> cache;
  std::string url = "redis://127.0.0.1:" + std::to_string(freePort());
  ASSERT_TRUE(RemoteCache::open(url, o, cache).ok());
  std::optional<std::string> out;
  auto t0 = Clock::now();
  Status s = cache->get(keyOf("k"), out);
  ASSERT_FALSE(s.ok());
  EXPECT_LT(msSince(t0), o.timeoutMs + 500.0);
  EXPECT_NE(s.message().find("cannot connect"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(cache->url()), std::string::npos);
  // The default window is 30 s: the next calls do not try.
  s = cache->put(keyOf("k"), "v");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unavailable until"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("cannot connect"), std::string::npos);
}

TEST(RemoteCacheNetwork, AServerThatNeverAnswersTimesOut) {
  std::string why;
  if (!haveHiredis(why))
    GTEST_SKIP() << why;
  // A listening socket nobody accepts on: the kernel completes the
  // connection, and the command's reply never comes.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(fd, (sockaddr *)&addr, sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  ASSERT_EQ(::getsockname(fd, (sockaddr *)&addr, &len), 0);
  RemoteCache::Options o;
  o.timeoutMs = 300;
  std::unique_ptr<RemoteCache> cache;
  std::string url = "redis://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  ASSERT_TRUE(RemoteCache::open(url, o, cache).ok());
  std::optional<std::string> out;
  auto t0 = Clock::now();
  Status s = cache->get(keyOf("k"), out);
  double ms = msSince(t0);
  ::close(fd);
  ASSERT_FALSE(s.ok());
  EXPECT_GE(ms, o.timeoutMs - 50.0);
  EXPECT_LT(ms, o.timeoutMs + 500.0);
  EXPECT_NE(s.message().find("GET failed"), std::string::npos) << s.message();
}

} // namespace
