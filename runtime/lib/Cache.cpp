//===- Cache.cpp - The on-disk cache of compiled kernels ---------*- C++ -*-===//
//
// POSIX file operations only (the runtime links nothing but libcuda). The
// layout and guarantees are described in tilec/Cache.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Cache.h"
#include "Detail.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

using namespace tilec;

namespace {

/// "TILECC" + format version 1, then a NUL: the first 8 bytes of an entry.
constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'C', '\1', '\0'};
/// Entries' files start with a two-hex-digit folder and end with the key.
constexpr const char *kTempPrefix = ".tmp.";

std::string errnoText(int err) { return std::strerror(err); }

Status ioError(std::string_view what, const std::string &path, int err) {
  return Status::error(std::string(what) + " '" + path + "': " +
                       errnoText(err));
}

/// mkdir -p with mode 0700 for the parts it creates.
Status makeDirs(const std::string &path) {
  std::string partial;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t next = path.find('/', pos);
    if (next == std::string::npos)
      next = path.size();
    partial = path.substr(0, next);
    pos = next + 1;
    if (partial.empty())
      continue;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST)
      return ioError("cannot create the cache directory", partial, errno);
  }
  return Status::success();
}

void putU64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t getU64(std::string_view in, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t(uint8_t(in[at + i])) << (8 * i);
  return v;
}

int64_t mtimeNs(const struct stat &st) {
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

/// Reads the whole file at `path` into `out`; false with errno set on error.
bool readFile(const std::string &path, std::string &out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  out.clear();
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int err = errno;
      ::close(fd);
      errno = err;
      return false;
    }
    if (n == 0)
      break;
    out.append(buf, size_t(n));
  }
  ::close(fd);
  return true;
}

/// Calls `f(path, name, stat)` for every regular file in the two-level
/// layout (`<dir>/<xx>/<file>`).
template <typename F> Status forEachFile(const std::string &dir, F f) {
  DIR *top = ::opendir(dir.c_str());
  if (!top)
    return ioError("cannot read the cache directory", dir, errno);
  while (struct dirent *d = ::readdir(top)) {
    std::string sub = d->d_name;
    if (sub.size() != 2 || !std::isxdigit(uint8_t(sub[0])) ||
        !std::isxdigit(uint8_t(sub[1])))
      continue;
    std::string subPath = dir + "/" + sub;
    DIR *inner = ::opendir(subPath.c_str());
    if (!inner)
      continue;
    while (struct dirent *e = ::readdir(inner)) {
      std::string name = e->d_name;
      if (name == "." || name == "..")
        continue;
      std::string path = subPath + "/" + name;
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        continue;
      f(path, name, st);
    }
    ::closedir(inner);
  }
  ::closedir(top);
  return Status::success();
}

} // namespace

uint64_t DiskCache::fnv1a(std::string_view data, uint64_t seed) {
  uint64_t h = seed;
  for (char c : data) {
    h ^= uint8_t(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string detail::frameCacheValue(const char (&magic)[8],
                                    std::string_view key,
                                    std::string_view payload) {
  std::string out;
  out.reserve(cacheValueHeaderSize(key) + payload.size());
  out.append(magic, sizeof magic);
  for (int i = 0; i < 4; ++i)
    out.push_back(char((key.size() >> (8 * i)) & 0xff));
  out.append(key);
  putU64(out, payload.size());
  putU64(out, DiskCache::fnv1a(payload, DiskCache::fnv1a(key)));
  out.append(payload);
  return out;
}

size_t detail::cacheValueHeaderSize(std::string_view key) {
  return 8 + 4 + key.size() + 16;
}

std::string detail::checkCacheValue(const char (&magic)[8],
                                    std::string_view key,
                                    std::string_view value,
                                    const char *notFramed) {
  size_t fixed = sizeof magic + 4;
  if (value.size() < fixed || std::memcmp(value.data(), magic, sizeof magic))
    return notFramed;
  uint32_t keyLen = 0;
  for (int i = 0; i < 4; ++i)
    keyLen |= uint32_t(uint8_t(value[sizeof magic + i])) << (8 * i);
  if (keyLen > 128 || value.size() < fixed + keyLen + 16)
    return "is truncated";
  if (value.substr(fixed, keyLen) != key)
    return "holds another key";
  size_t at = fixed + keyLen;
  uint64_t length = getU64(value, at), checksum = getU64(value, at + 8);
  std::string_view payload = value.substr(at + 16);
  if (payload.size() != length)
    return payload.size() < length ? "is truncated" : "has trailing bytes";
  if (DiskCache::fnv1a(payload, DiskCache::fnv1a(key)) != checksum)
    return "fails its checksum";
  return {};
}

bool DiskCache::isValidKey(std::string_view key) {
  if (key.size() < 16 || key.size() > 128)
    return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

Status DiskCache::open(const Options &options, DiskCache &out) {
  std::string dir = options.dir;
  if (dir.empty()) {
    if (const char *env = std::getenv("TILEC_CACHE_DIR"); env && *env)
      dir = env;
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
      dir = std::string(xdg) + "/tilec";
    else if (const char *home = std::getenv("HOME"); home && *home)
      dir = std::string(home) + "/.cache/tilec";
    else
      return Status::error("no cache directory: set TILEC_CACHE_DIR (or "
                           "XDG_CACHE_HOME or HOME)");
  }
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (Status s = makeDirs(dir); !s)
    return s;
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0)
    return ioError("cannot open the cache directory", dir, errno);
  if (!S_ISDIR(st.st_mode))
    return Status::error("cache directory '" + dir + "' is not a directory");
  if (st.st_uid != ::geteuid())
    return Status::error("cache directory '" + dir +
                         "' belongs to another user: entries there could be "
                         "planted; use TILEC_CACHE_DIR");
  if (st.st_mode & 022)
    return Status::error("cache directory '" + dir +
                         "' is writable by group or others (chmod 700 it)");
  out.dir = dir;
  out.maxBytes = options.maxBytes;
  return Status::success();
}

std::string DiskCache::pathOf(std::string_view key) const {
  return dir + "/" + std::string(key.substr(0, 2)) + "/" + std::string(key);
}

Status DiskCache::lookup(std::string_view key, Lookup &out) const {
  out = Lookup();
  if (!isValidKey(key))
    return Status::error("invalid cache key '" + std::string(key.substr(0, 64)) +
                         "' (expected 16 to 128 lowercase hex digits)");
  std::string path = pathOf(key);
  std::string data;
  if (!readFile(path, data)) {
    if (errno != ENOENT)
      out.note = "cache entry '" + path + "' unreadable: " + errnoText(errno);
    return Status::success(); // a miss
  }
  auto bad = [&](const char *why) {
    out.note = "cache entry '" + path + "' " + why + "; deleted, rebuilding";
    ::unlink(path.c_str());
    return Status::success();
  };
  if (std::string why = detail::checkCacheValue(
          kMagic, key, data,
          "is not a tilec cache entry (or of another format version)");
      !why.empty())
    return bad(why.c_str());
  std::string_view payload =
      std::string_view(data).substr(detail::cacheValueHeaderSize(key));
  // A hit: the entry is recently used (LRU eviction reads mtime).
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  out.payload = std::string(payload);
  return Status::success();
}

Status DiskCache::store(std::string_view key, std::string_view payload) {
  if (!isValidKey(key))
    return Status::error("invalid cache key '" + std::string(key.substr(0, 64)) +
                         "' (expected 16 to 128 lowercase hex digits)");
  std::string folder = dir + "/" + std::string(key.substr(0, 2));
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
    return ioError("cannot create cache folder", folder, errno);
  std::string data = detail::frameCacheValue(kMagic, key, payload);

  // A temporary file unique to this process and call, in the entry's
  // folder (one file system, so the rename is atomic).
  static std::atomic<uint64_t> counter{0};
  std::string temp = folder + "/" + kTempPrefix + std::to_string(::getpid()) +
                     "." + std::to_string(counter++) + "." +
                     std::string(key.substr(0, 16));
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return ioError("cannot create a cache file", temp, errno);
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int err = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      return ioError("cannot write cache file", temp, err);
    }
    done += size_t(n);
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ioError("cannot write cache file", temp, err);
  }
  std::string path = pathOf(key);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ioError("cannot install cache entry", path, err);
  }
  if (maxBytes) {
    uint64_t bytes = 0, entries = 0;
    if (Status s = stats(bytes, entries); !s)
      return s;
    if (bytes > maxBytes)
      return evictTo(maxBytes - maxBytes / 10);
  }
  return Status::success();
}

Status DiskCache::remove(std::string_view key) {
  if (!isValidKey(key))
    return Status::error("invalid cache key '" + std::string(key.substr(0, 64)) +
                         "'");
  std::string path = pathOf(key);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return ioError("cannot remove cache entry", path, errno);
  return Status::success();
}

Status DiskCache::list(std::vector<Entry> &out) const {
  out.clear();
  Status s = forEachFile(dir, [&](const std::string &, const std::string &name,
                                  const struct stat &st) {
    if (!isValidKey(name))
      return;
    out.push_back({name, uint64_t(st.st_size), mtimeNs(st)});
  });
  std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) {
    return a.lastUsedNs != b.lastUsedNs ? a.lastUsedNs > b.lastUsedNs
                                        : a.key < b.key;
  });
  return s;
}

Status DiskCache::clear() {
  int err = 0;
  std::string failed;
  Status s = forEachFile(dir, [&](const std::string &path,
                                  const std::string &name, const struct stat &) {
    if (!isValidKey(name) && name.rfind(kTempPrefix, 0) != 0)
      return; // not ours
    if (::unlink(path.c_str()) != 0 && errno != ENOENT && !err) {
      err = errno;
      failed = path;
    }
  });
  if (!s)
    return s;
  if (err)
    return ioError("cannot remove cache entry", failed, err);
  return Status::success();
}

Status DiskCache::stats(uint64_t &bytes, uint64_t &entries) const {
  bytes = entries = 0;
  return forEachFile(dir, [&](const std::string &, const std::string &name,
                              const struct stat &st) {
    if (!isValidKey(name))
      return;
    bytes += uint64_t(st.st_size);
    ++entries;
  });
}

Status DiskCache::evictTo(uint64_t targetBytes) {
  std::vector<Entry> entries;
  // Leftover temporary files of processes that died mid-store (an hour
  // old) go too.
  int64_t now = int64_t(std::time(nullptr)) * 1000000000;
  Status s = forEachFile(dir, [&](const std::string &path,
                                  const std::string &name,
                                  const struct stat &st) {
    if (name.rfind(kTempPrefix, 0) == 0 &&
        now - mtimeNs(st) > int64_t(3600) * 1000000000)
      ::unlink(path.c_str());
  });
  if (!s)
    return s;
  if (Status l = list(entries); !l)
    return l;
  uint64_t total = 0;
  for (const Entry &e : entries)
    total += e.bytes;
  // Oldest last in `entries`: remove from the back.
  while (total > targetBytes && !entries.empty()) {
    const Entry &e = entries.back();
    std::string path = pathOf(e.key);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return ioError("cannot evict cache entry", path, errno);
    total -= std::min(total, e.bytes);
    entries.pop_back();
  }
  return Status::success();
}
