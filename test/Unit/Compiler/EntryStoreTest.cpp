//===- EntryStoreTest.cpp - The JIT's entries on disk and in the fleet -----===//
//
// compiler/Jit/EntryStore.h: entries round-trip through their format; a
// lookup finds the disk first, the fleet cache (a real redis-server the test
// starts; skipped without one or without libhiredis) second and copies a
// fleet hit to disk; an entry whose imported module changed is stale; a
// fleet cache that went away is a note, not an error.
//
//===----------------------------------------------------------------------===//
#include "compiler/Jit/EntryStore.h"
#include "../RedisTestServer.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tilec;
using namespace tilec::testing;

namespace {

std::string tempDir() {
  char tmpl[] = "/tmp/tilec-entrystore-XXXXXX";
  const char *d = ::mkdtemp(tmpl);
  return d ? d : "";
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

JitEntry sampleEntry(const std::string &dep) {
  JitEntry e;
  e.metadataJson = "{\"format\": \"tilec-kernels\"}";
  e.cubin = true;
  e.image = std::string("\x7f" "ELF\0\1\2", 7) + std::string(1000, '\xab');
  if (!dep.empty()) {
    std::ifstream in(dep, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    e.deps.emplace_back(dep, sha256Hex(ss.str()));
  }
  return e;
}

const std::string kKey(64, 'a');

TEST(JitEntry, RoundTripsAndRejectsOtherBytes) {
  JitEntry e = sampleEntry(""), back;
  e.deps = {{"/x/a.py", std::string(64, '1')}, {"/y b\n.py", std::string(64, '2')}};
  std::string bytes = serializeJitEntry(e);
  ASSERT_TRUE(parseJitEntry(bytes, back));
  EXPECT_EQ(back.metadataJson, e.metadataJson);
  EXPECT_EQ(back.image, e.image);
  EXPECT_TRUE(back.cubin);
  EXPECT_EQ(back.deps, e.deps);
  EXPECT_FALSE(parseJitEntry(bytes.substr(0, bytes.size() - 1), back));
  EXPECT_FALSE(parseJitEntry(bytes + "x", back));
  EXPECT_FALSE(parseJitEntry("tilec-jit-entry 2\n", back));
  EXPECT_FALSE(parseJitEntry("", back));
}

TEST(EntryStore, DiskHitAndStaleImports) {
  std::string dir = tempDir();
  std::string dep = dir + "/helpers.py";
  writeFile(dep, "x = 1\n");
  DiskCache disk;
  DiskCache::Options o;
  o.dir = dir + "/cache";
  ASSERT_TRUE(DiskCache::open(o, disk).ok());
  std::vector<std::string> notes;
  EntryStore store(&disk, nullptr, [&](const std::string &n) { notes.push_back(n); });
  EntryStore::Source from;
  EXPECT_FALSE(store.lookup(kKey, from));
  store.store(kKey, sampleEntry(dep));
  std::optional<JitEntry> hit = store.lookup(kKey, from);
  ASSERT_TRUE(hit);
  EXPECT_EQ(from, EntryStore::Source::Disk);
  EXPECT_TRUE(notes.empty());
  writeFile(dep, "x = 2\n");
  EXPECT_FALSE(store.lookup(kKey, from));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("has changed"), std::string::npos) << notes[0];
  (void)std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(EntryStore, APathFoundAbsentThatAppearsMakesTheEntryStale) {
  // An import that searched dir/helpers.py in vain before finding the
  // module elsewhere would now find the new file first.
  std::string dir = tempDir();
  DiskCache disk;
  DiskCache::Options o;
  o.dir = dir + "/cache";
  ASSERT_TRUE(DiskCache::open(o, disk).ok());
  std::vector<std::string> notes;
  EntryStore store(&disk, nullptr, [&](const std::string &n) { notes.push_back(n); });
  JitEntry e = sampleEntry("");
  e.deps.emplace_back(dir + "/helpers.py", "absent");
  store.store(kKey, e);
  EntryStore::Source from;
  ASSERT_TRUE(store.lookup(kKey, from));
  writeFile(dir + "/helpers.py", "SCALE = 3\n");
  EXPECT_FALSE(store.lookup(kKey, from));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("helpers.py"), std::string::npos) << notes[0];
  (void)std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(EntryStore, FleetSecondCopiedToDiskAndDownIsANote) {
  std::string binary = findRedisServer();
  if (binary.empty())
    GTEST_SKIP() << "redis-server not found";
  std::unique_ptr<RemoteCache> fleet;
  RemoteCache::Options ro;
  ro.timeoutMs = 300;
  RedisServer server;
  std::string why;
  ASSERT_TRUE(server.start(binary, why)) << why;
  Status s = RemoteCache::open("redis://127.0.0.1:" + std::to_string(server.port),
                               ro, fleet);
  if (!s.ok())
    GTEST_SKIP() << s.message();

  std::string dir = tempDir();
  DiskCache diskA, diskB;
  DiskCache::Options oa, ob;
  oa.dir = dir + "/a";
  ob.dir = dir + "/b";
  ASSERT_TRUE(DiskCache::open(oa, diskA).ok());
  ASSERT_TRUE(DiskCache::open(ob, diskB).ok());
  std::vector<std::string> notes;
  auto note = [&](const std::string &n) { notes.push_back(n); };
  // Machine A compiles and stores; machine B (its own disk) finds it in
  // the fleet, then on its disk.
  EntryStore a(&diskA, fleet.get(), note), b(&diskB, fleet.get(), note);
  a.store(kKey, sampleEntry(""));
  EntryStore::Source from;
  std::optional<JitEntry> hit = b.lookup(kKey, from);
  ASSERT_TRUE(hit);
  EXPECT_EQ(from, EntryStore::Source::Fleet);
  EXPECT_EQ(hit->image, sampleEntry("").image);
  ASSERT_TRUE(b.lookup(kKey, from));
  EXPECT_EQ(from, EntryStore::Source::Disk);
  EXPECT_TRUE(notes.empty());

  // The server goes away: lookups and stores go on, each failure a note.
  server.stop();
  std::string other(64, 'b');
  auto t0 = Clock::now();
  EXPECT_FALSE(b.lookup(other, from));
  b.store(other, sampleEntry(""));
  EXPECT_LT(msSince(t0), 3000);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("fleet cache"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("going on without it"), std::string::npos) << notes[0];
  ASSERT_TRUE(b.lookup(other, from)); // stored on disk all the same
  EXPECT_EQ(from, EntryStore::Source::Disk);
  (void)std::system(("rm -rf '" + dir + "'").c_str());
}

} // namespace
