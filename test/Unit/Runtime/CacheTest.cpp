//===- CacheTest.cpp - The disk cache: entries, damage, concurrency -------===//
//
// tilec::DiskCache (runtime/include/tilec/Cache.h) in a fresh temporary
// directory per test: store and lookup, the directory's permissions, keys
// that would make paths, corrupt / truncated / foreign entries (reported,
// deleted, a miss), LRU eviction, and 16 processes storing at once.
//
//===----------------------------------------------------------------------===//

#include "tilec/Cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilec;

namespace {

class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tilec-cache-test-XXXXXX";
    ASSERT_TRUE(::mkdtemp(tmpl));
    root = tmpl;
    dir = root + "/cache/tilec";
  }
  void TearDown() override {
    std::string cmd = "rm -rf '" + root + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  DiskCache open(uint64_t maxBytes = uint64_t(1) << 30) {
    DiskCache c;
    DiskCache::Options o;
    o.dir = dir;
    o.maxBytes = maxBytes;
    Status s = DiskCache::open(o, c);
    EXPECT_TRUE(s.ok()) << s.message();
    return c;
  }
  static std::string key(int i) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx",
                  (unsigned long long)DiskCache::fnv1a(std::to_string(i)));
    return buf;
  }
  std::string pathOf(const std::string &k) {
    return dir + "/" + k.substr(0, 2) + "/" + k;
  }
  std::string root, dir;
};

TEST_F(CacheTest, StoreAndLookup) {
  DiskCache c = open();
  DiskCache::Lookup l;
  ASSERT_TRUE(c.lookup(key(1), l).ok());
  EXPECT_FALSE(l.payload);
  EXPECT_TRUE(l.note.empty());
  std::string payload("cubin\0bytes\xff", 12);
  ASSERT_TRUE(c.store(key(1), payload).ok());
  ASSERT_TRUE(c.lookup(key(1), l).ok());
  ASSERT_TRUE(l.payload);
  EXPECT_EQ(*l.payload, payload);
  // Replacing an entry.
  ASSERT_TRUE(c.store(key(1), "v2").ok());
  ASSERT_TRUE(c.lookup(key(1), l).ok());
  EXPECT_EQ(*l.payload, "v2");
  uint64_t bytes = 0, entries = 0;
  ASSERT_TRUE(c.stats(bytes, entries).ok());
  EXPECT_EQ(entries, 1u);
  ASSERT_TRUE(c.remove(key(1)).ok());
  ASSERT_TRUE(c.lookup(key(1), l).ok());
  EXPECT_FALSE(l.payload);
}

TEST_F(CacheTest, DirectoryPermissions) {
  DiskCache c = open();
  struct stat st;
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_TRUE(c.store(key(2), "x").ok());
  ASSERT_EQ(::stat(pathOf(key(2)).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // A directory others may write to is refused.
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  DiskCache d;
  DiskCache::Options o;
  o.dir = dir;
  Status s = DiskCache::open(o, d);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("writable by group or others"),
            std::string::npos);
  // A file where the directory should be.
  std::string file = root + "/plain";
  std::ofstream(file) << "x";
  o.dir = file;
  s = DiskCache::open(o, d);
  EXPECT_FALSE(s.ok());
}

TEST_F(CacheTest, KeysNeverMakePaths) {
  DiskCache c = open();
  DiskCache::Lookup l;
  for (const char *bad : {"../../etc/passwd", "ABCDEF0123456789", "0123",
                          "0123456789abcdef/x", "softmax_kernel_0123456789",
                          ""}) {
    Status s = c.store(bad, "x");
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("invalid cache key"), std::string::npos);
    EXPECT_FALSE(c.lookup(bad, l).ok()) << bad;
  }
  EXPECT_TRUE(DiskCache::isValidKey("0123456789abcdef"));
  EXPECT_FALSE(DiskCache::isValidKey(std::string(129, 'a')));
}

TEST_F(CacheTest, DamagedEntriesAreMissesAndDeleted) {
  DiskCache c = open();
  std::string payload(1000, 'p');
  auto damage = [&](const std::string &k, auto edit) {
    ASSERT_TRUE(c.store(k, payload).ok());
    std::string path = pathOf(k);
    std::ifstream in(path, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), {});
    in.close();
    edit(data);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
  };
  struct Case {
    const char *what;
    std::function<void(std::string &)> edit;
  };
  std::vector<Case> cases = {
      {"fails its checksum", [](std::string &d) { d[d.size() - 10] ^= 1; }},
      {"is truncated", [](std::string &d) { d.resize(d.size() - 100); }},
      {"is truncated", [](std::string &d) { d.resize(20); }},
      {"has trailing bytes", [](std::string &d) { d += "junk"; }},
      {"is not a tilec cache entry", [](std::string &d) { d[0] = 'X'; }},
      {"is not a tilec cache entry", [](std::string &d) { d.clear(); }},
  };
  int i = 100;
  for (const Case &cs : cases) {
    std::string k = key(i++);
    damage(k, cs.edit);
    DiskCache::Lookup l;
    ASSERT_TRUE(c.lookup(k, l).ok());
    EXPECT_FALSE(l.payload) << cs.what;
    EXPECT_NE(l.note.find(cs.what), std::string::npos) << l.note;
    struct stat st;
    EXPECT_NE(::stat(pathOf(k).c_str(), &st), 0) << "not deleted: " << cs.what;
    // Rebuilt: a store makes it whole again.
    ASSERT_TRUE(c.store(k, payload).ok());
    ASSERT_TRUE(c.lookup(k, l).ok());
    EXPECT_TRUE(l.payload);
  }
  // Another key's entry copied over this one's (a foreign entry).
  std::string a = key(1), b = key(2);
  ASSERT_TRUE(c.store(a, "A").ok());
  ASSERT_TRUE(c.store(b, "B").ok());
  ::mkdir((dir + "/" + b.substr(0, 2)).c_str(), 0700);
  ASSERT_EQ(::rename(pathOf(a).c_str(), pathOf(b).c_str()), 0);
  DiskCache::Lookup l;
  ASSERT_TRUE(c.lookup(b, l).ok());
  EXPECT_FALSE(l.payload);
  EXPECT_NE(l.note.find("holds another key"), std::string::npos) << l.note;
}

TEST_F(CacheTest, EvictsLeastRecentlyUsed) {
  DiskCache c = open(/*maxBytes=*/10000);
  std::string payload(2000, 'x');
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(c.store(key(i), payload).ok());
    // Distinct modification times, oldest first.
    struct timespec times[2] = {{0, UTIME_OMIT}, {1000 + i, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, pathOf(key(i)).c_str(), times, 0), 0);
  }
  // A hit refreshes key(0): key(1) is now the least recently used.
  DiskCache::Lookup l;
  ASSERT_TRUE(c.lookup(key(0), l).ok());
  ASSERT_TRUE(l.payload);
  // Five entries of 2044 bytes (a 44-byte header) cross 10000: eviction
  // down to 9000 removes the least recently used one.
  ASSERT_TRUE(c.store(key(4), payload).ok());
  std::vector<DiskCache::Entry> entries;
  ASSERT_TRUE(c.list(entries).ok());
  std::vector<std::string> keys;
  for (const auto &e : entries)
    keys.push_back(e.key);
  EXPECT_EQ(keys.size(), 4u);
  EXPECT_EQ(std::count(keys.begin(), keys.end(), key(1)), 0);
  EXPECT_EQ(std::count(keys.begin(), keys.end(), key(2)), 1);
  EXPECT_EQ(std::count(keys.begin(), keys.end(), key(0)), 1);
  EXPECT_EQ(std::count(keys.begin(), keys.end(), key(4)), 1);
  ASSERT_TRUE(c.clear().ok());
  uint64_t bytes = 1, count = 1;
  ASSERT_TRUE(c.stats(bytes, count).ok());
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(bytes, 0u);
}

TEST_F(CacheTest, SixteenProcessesStoreAtOnce) {
  DiskCache c = open();
  // Every process stores the same key and a key of its own, many times,
  // while reading the shared one: readers never see a partial entry.
  std::vector<pid_t> kids;
  for (int p = 0; p < 16; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      DiskCache mine;
      DiskCache::Options o;
      o.dir = dir;
      if (!DiskCache::open(o, mine).ok())
        ::_exit(2);
      std::string shared(50000, 's');
      std::string own(30000, char('a' + p));
      for (int i = 0; i < 20; ++i) {
        if (!mine.store(key(7), shared).ok() ||
            !mine.store(key(1000 + p), own).ok())
          ::_exit(3);
        DiskCache::Lookup l;
        if (!mine.lookup(key(7), l).ok() || !l.payload || *l.payload != shared)
          ::_exit(4);
      }
      ::_exit(0);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child exit " << WEXITSTATUS(status);
  }
  DiskCache::Lookup l;
  ASSERT_TRUE(c.lookup(key(7), l).ok());
  EXPECT_EQ(*l.payload, std::string(50000, 's'));
  for (int p = 0; p < 16; ++p) {
    ASSERT_TRUE(c.lookup(key(1000 + p), l).ok());
    ASSERT_TRUE(l.payload);
    EXPECT_EQ(*l.payload, std::string(30000, char('a' + p)));
  }
  uint64_t bytes = 0, count = 0;
  ASSERT_TRUE(c.stats(bytes, count).ok());
  EXPECT_EQ(count, 17u); // no temporary file left behind is counted
}

} // namespace
