//===- RemoteCache.h - The fleet cache of compiled kernels ------*- C++ -*-===//
//
// An optional remote backend behind the disk cache (issue 13, item 4), so
// that a cluster compiles each kernel once: Redis, as Triton offers. Values
// are stored under the disk cache's keys (the compile key's hash, checked by
// DiskCache::isValidKey) with a prefix, and wrapped in a header like the
// disk cache's entries (magic, the key, the payload's length and its 64-bit
// FNV-1a checksum), so a damaged or foreign value reads as a miss. The
// caller looks on disk first and here second, and treats every error of
// this class as a warning: the fleet cache only ever saves a compile.
//
//  - hiredis is loaded with dlopen at open() ($TILEC_HIREDIS_LIBRARY if set,
//    else libhiredis.so.0.14, .1.1.0, ...), never linked: a program that
//    does not use the fleet cache needs no hiredis, and one that does needs
//    only the library (0.14 or 1.x), not its headers.
//  - One connection, made on first use and guarded by a mutex (thread-safe);
//    connect and every command are bounded by Options::timeoutMs.
//  - After a failure (connect, command, server error) the connection is
//    dropped and, for Options::retryAfterMs, calls fail at once without
//    touching the network; then the next call connects again.
//
// Driver-free and MLIR-free (tilec_runtime_core). No function throws or
// aborts; failures return a tilec::Status.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_REMOTECACHE_H
#define TILEC_REMOTECACHE_H

#include "tilec/Runtime.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

class RemoteCache {
public:
  struct Options {
    /// Connect and command timeout (milliseconds).
    unsigned timeoutMs = 1000;
    /// The Redis key of a cache key: keyPrefix + key.
    std::string keyPrefix = "tilec:";
    /// The largest payload put() stores and get() accepts (bytes).
    uint64_t maxValueBytes = 256ull << 20;
    /// After a failure, calls fail at once for this long (milliseconds).
    unsigned retryAfterMs = 30000;
  };

  /// Where a URL points: redis://HOST[:PORT][/DB].
  struct Endpoint {
    std::string host; ///< a name, an IPv4 address or an IPv6 one (no brackets)
    unsigned port = 6379;
    unsigned db = 0;
  };

  /// Parses `url` = "redis://HOST[:PORT][/DB]": PORT 1 to 65535 (default
  /// 6379), DB a decimal number (default 0), HOST a name, an IPv4 address
  /// or an IPv6 address in brackets. Errors say what was expected.
  static Status parseUrl(std::string_view url, Endpoint &out);

  /// Parses `url` (parseUrl) and loads hiredis ($TILEC_HIREDIS_LIBRARY, else
  /// libhiredis.so.0.14, .1.1.0, .1.4.0, .1.3.0, .1.0.0 or libhiredis.so);
  /// connects on first use. Errors: a malformed URL, a zero timeout, or no
  /// loadable libhiredis.
  static Status open(const std::string &url, const Options &options,
                     std::unique_ptr<RemoteCache> &out);

  ~RemoteCache();
  RemoteCache(const RemoteCache &) = delete;
  RemoteCache &operator=(const RemoteCache &) = delete;

  /// Looks `key` up: a hit fills `out`, a miss leaves it empty (ok). A
  /// stored value that fails its check (header, key, length, checksum, or
  /// larger than maxValueBytes) is a miss with `note` saying why; a damaged
  /// or foreign one is also deleted. Errors: an invalid key, a connection
  /// or command failure (then the retry-after window starts), or a call
  /// inside that window ("fleet cache ... unavailable until ...").
  Status get(std::string_view key, std::optional<std::string> &out,
             std::string *note = nullptr);

  /// Stores `payload` under `key` (SET, replacing a value). Errors: an
  /// invalid key, a payload larger than maxValueBytes, and the failures of
  /// get().
  Status put(std::string_view key, std::string_view payload);

  /// The URL, normalized: redis://HOST:PORT/DB.
  const std::string &url() const;

private:
  struct State;
  explicit RemoteCache(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace tilec

#endif // TILEC_REMOTECACHE_H
