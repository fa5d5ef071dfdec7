//===- Cache.h - The on-disk cache of compiled kernels ------------*- C++ -*-===//
//
// A content-addressed disk cache (issue 13, item 3): a compiled kernel (its
// cubin or PTX and its metadata, serialized by the caller into one blob) is
// stored under its compile key's hash, so that a second process loads it
// instead of compiling. Driver-free and MLIR-free (tilec_runtime_core).
//
//  - The directory is `TILEC_CACHE_DIR`, else `$XDG_CACHE_HOME/tilec`, else
//    `$HOME/.cache/tilec`; it is created with mode 0700 and must be owned by
//    the user and not writable by others.
//  - An entry's file name is the key alone (hex digits, checked), so no path
//    is ever built from kernel names or other user text: `<dir>/<k0k1>/<key>`.
//  - Entries are written to a temporary file (mode 0600) and renamed into
//    place, so a reader sees a whole entry or none, and many processes may
//    store the same key at once (the last rename wins; all are equal).
//  - Each entry holds a header (magic, format version, the key, the payload's
//    length and a 64-bit FNV-1a checksum) verified before the payload is
//    returned: a corrupt, truncated or foreign entry is reported in the
//    lookup's `note`, deleted, and reads as a miss (the caller rebuilds it).
//  - A size limit (default 1 GiB) is kept by evicting the least recently
//    used entries (a hit refreshes the entry's modification time) after a
//    store that crossed it.
//
// No function throws or aborts; failures return a tilec::Status.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CACHE_H
#define TILEC_CACHE_H

#include "tilec/Runtime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

class DiskCache {
public:
  struct Options {
    /// The cache directory; empty: TILEC_CACHE_DIR, XDG_CACHE_HOME/tilec or
    /// HOME/.cache/tilec.
    std::string dir;
    /// Total size of the entries (bytes) above which a store evicts the
    /// least recently used ones, down to 90% of it.
    uint64_t maxBytes = uint64_t(1) << 30;
  };

  /// One entry, as list() reports it.
  struct Entry {
    std::string key;
    uint64_t bytes = 0;      ///< the file's size, header included
    int64_t lastUsedNs = 0;  ///< modification time (refreshed by hits)
  };

  /// The result of a lookup: the payload on a hit; on a miss, `note` says
  /// why when an entry existed but was bad (it has been deleted).
  struct Lookup {
    std::optional<std::string> payload;
    std::string note;
  };

  /// Opens (creating, mode 0700) the cache directory. Errors: no directory
  /// could be chosen (no TILEC_CACHE_DIR, XDG_CACHE_HOME or HOME), it cannot
  /// be created, it is not a directory, or it is owned by another user or
  /// writable by group or others.
  static Status open(const Options &options, DiskCache &out);

  /// The directory open() chose.
  const std::string &directory() const { return dir; }

  /// Whether `key` is a valid cache key: 16 to 128 lowercase hex digits.
  static bool isValidKey(std::string_view key);

  /// The payload stored under `key`, or a miss. Errors only for an invalid
  /// key; an unreadable or bad entry is a miss with a note.
  Status lookup(std::string_view key, Lookup &out) const;

  /// Stores `payload` under `key` (atomically; replacing an entry), then
  /// evicts least recently used entries if the total exceeds maxBytes.
  Status store(std::string_view key, std::string_view payload);

  /// Removes `key`'s entry, if any.
  Status remove(std::string_view key);

  /// Every entry (valid or not), most recently used first.
  Status list(std::vector<Entry> &out) const;

  /// Removes every entry and leftover temporary file.
  Status clear();

  /// The total size of the entries (bytes) and their count.
  Status stats(uint64_t &bytes, uint64_t &entries) const;

  /// Evicts least recently used entries until the total is at most
  /// `targetBytes`.
  Status evictTo(uint64_t targetBytes);

  /// The 64-bit FNV-1a hash of `data` (the entries' checksum; also a
  /// convenient way to make keys in tests).
  static uint64_t fnv1a(std::string_view data,
                        uint64_t seed = 0xcbf29ce484222325ull);

private:
  std::string dir;
  uint64_t maxBytes = 0;
  std::string pathOf(std::string_view key) const;
};

} // namespace tilec

#endif // TILEC_CACHE_H
