//===- EntryStore.h - The JIT's cache entries on disk and in the fleet -*- C++ -*-===//
//
// What the JIT keeps of a compile (an Entry: the kernels' metadata JSON, the
// image and the modules the compile imported with their SHA-256) and where
// it keeps it: the disk cache first, the fleet cache (Redis) second; a
// fleet hit is copied to disk. Driver-free, so it is unit-tested without a
// GPU (test/Unit/Compiler/EntryStoreTest.cpp). Internal to the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_JIT_ENTRYSTORE_H
#define TILEC_COMPILER_JIT_ENTRYSTORE_H

#include "tilec/Cache.h"
#include "tilec/RemoteCache.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// A compiled module as the caches hold it.
struct JitEntry {
  std::string metadataJson;
  /// A cubin (else PTX text).
  bool cubin = false;
  std::string image;
  /// (path, SHA-256 of its contents) of each module the compile imported,
  /// and (path, "absent") for each path it looked for in vain.
  std::vector<std::pair<std::string, std::string>> deps;
};

/// The entry's bytes (a versioned, length-prefixed format) and back;
/// parseJitEntry is false for anything else (another format, truncation).
std::string serializeJitEntry(const JitEntry &entry);
bool parseJitEntry(std::string_view bytes, JitEntry &out);

/// The hex SHA-256 of `data`.
std::string sha256Hex(std::string_view data);

/// Whether each module `entry` was compiled from still has the contents it
/// had and each path it found absent still is; else `changed` is the first
/// that differs (or cannot be read).
bool jitEntryDepsUnchanged(const JitEntry &entry, std::string &changed);

/// The disk cache and the fleet cache together, as the JIT uses them.
class EntryStore {
public:
  /// Where a lookup found its entry.
  enum class Source { Disk, Fleet };
  /// Either cache may be null (off). `note` receives what a caller may log:
  /// damaged, foreign or stale entries (deleted and missed), a fleet cache
  /// that failed (a warning: the lookup or store goes on without it).
  EntryStore(DiskCache *disk, RemoteCache *fleet,
             std::function<void(const std::string &)> note);

  /// The entry for `key`: on disk, else in the fleet cache (then stored on
  /// disk too). An entry whose imported modules changed is stale: a miss.
  std::optional<JitEntry> lookup(const std::string &key, Source &from);
  /// Stores `entry` on disk and in the fleet cache; failures are noted.
  void store(const std::string &key, const JitEntry &entry);
  /// Forgets `key` on disk (an entry that did not load).
  void remove(const std::string &key);

private:
  /// Parses and checks `bytes` found in `where`; a note when unusable.
  std::optional<JitEntry> usable(const std::string &key,
                                 const std::string &bytes, const char *where);
  DiskCache *disk;
  RemoteCache *fleet;
  std::function<void(const std::string &)> note;
};

} // namespace tilec

#endif // TILEC_COMPILER_JIT_ENTRYSTORE_H
