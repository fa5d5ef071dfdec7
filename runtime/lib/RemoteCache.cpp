//===- RemoteCache.cpp - The fleet cache of compiled kernels ----*- C++ -*-===//
//
// A Redis client over hiredis, loaded with dlopen: libtilec_jit.so and the
// runtime link no hiredis, so machines without it (the GPU machines) load
// them as before, and a fleet cache without libhiredis is an error of open().
//
// hiredis changed its structs' layout at 1.0 (RESP3 added `dval` and
// `vtype` to redisReply; redisContext begins with a function table), keeping
// the functions' signatures. Built against one version's headers and loaded
// as another, field reads would be wrong, so this file reads the few fields
// it needs (reply type, integer, string; context error) through mirrors of
// both layouts, picked at load time (1.x exports redisConnectWithOptions,
// 0.14 does not). The mirrors were taken from hiredis v0.14.1 and
// v1.0.0...v1.4.1; where hiredis/hiredis.h is found at build time
// (TILEC_HAVE_HIREDIS_H), they and the function signatures are checked
// against it by static_assert. The layout of a stored value is in
// tilec/RemoteCache.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/RemoteCache.h"
#include "Detail.h"
#include "tilec/Cache.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <mutex>
#include <type_traits>
#include <vector>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

#ifdef TILEC_HAVE_HIREDIS_H
#include <hiredis/hiredis.h>
#endif

using namespace tilec;
using Clock = std::chrono::steady_clock;

namespace {

//===----------------------------------------------------------------------===//
// hiredis, loaded at run time
//===----------------------------------------------------------------------===//

/// redisContext, opaque except for its error fields (below).
struct HiredisContext;

/// The functions used, with hiredis's signatures (the same in 0.14 and 1.x).
template <typename Ctx> struct HiredisSignatures {
  using Connect = Ctx *(*)(const char *ip, int port, const struct timeval tv);
  using SetTimeout = int (*)(Ctx *c, const struct timeval tv);
  using CommandArgv = void *(*)(Ctx *c, int argc, const char **argv,
                                const size_t *argvlen);
  using FreeReply = void (*)(void *reply);
  using Free = void (*)(Ctx *c);
};
using Fns = HiredisSignatures<HiredisContext>;

/// The leading fields of redisContext and redisReply in hiredis 0.14 ...
struct ContextV0 {
  int err;
  char errstr[128];
};
struct ReplyV0 {
  int type;
  long long integer;
  size_t len;
  char *str;
  size_t elements;
  void **element;
};
/// ... and in hiredis 1.0 to 1.4.
struct ContextV1 {
  const void *funcs;
  int err;
  char errstr[128];
};
struct ReplyV1 {
  int type;
  long long integer;
  double dval;
  size_t len;
  char *str;
  char vtype[4];
  size_t elements;
  void **element;
};

// Reply types and REDIS_OK, the same in every version.
constexpr int kReplyString = 1, kReplyInteger = 3, kReplyNil = 4,
              kReplyStatus = 5, kReplyError = 6;
constexpr int kRedisOk = 0;

#ifdef TILEC_HAVE_HIREDIS_H
static_assert(std::is_same_v<decltype(&redisConnectWithTimeout),
                             HiredisSignatures<redisContext>::Connect>);
static_assert(std::is_same_v<decltype(&redisSetTimeout),
                             HiredisSignatures<redisContext>::SetTimeout>);
static_assert(std::is_same_v<decltype(&redisCommandArgv),
                             HiredisSignatures<redisContext>::CommandArgv>);
static_assert(std::is_same_v<decltype(&freeReplyObject),
                             HiredisSignatures<redisContext>::FreeReply>);
static_assert(std::is_same_v<decltype(&redisFree),
                             HiredisSignatures<redisContext>::Free>);
#if HIREDIS_MAJOR >= 1
using HeaderContext = ContextV1;
using HeaderReply = ReplyV1;
#else
using HeaderContext = ContextV0;
using HeaderReply = ReplyV0;
#endif
static_assert(offsetof(redisContext, err) == offsetof(HeaderContext, err) &&
              offsetof(redisContext, errstr) ==
                  offsetof(HeaderContext, errstr));
static_assert(offsetof(redisReply, type) == offsetof(HeaderReply, type) &&
              offsetof(redisReply, integer) == offsetof(HeaderReply, integer) &&
              offsetof(redisReply, len) == offsetof(HeaderReply, len) &&
              offsetof(redisReply, str) == offsetof(HeaderReply, str));
static_assert(REDIS_REPLY_STRING == kReplyString &&
              REDIS_REPLY_INTEGER == kReplyInteger &&
              REDIS_REPLY_NIL == kReplyNil &&
              REDIS_REPLY_STATUS == kReplyStatus &&
              REDIS_REPLY_ERROR == kReplyError && REDIS_OK == kRedisOk);
#endif

/// The names tried, in order: Debian 12 / Ubuntu 22.04 (0.14), Debian 13 /
/// Ubuntu 24.04 (1.1.0, also hiredis 1.2), newer and older 1.x, then the
/// development symlink.
constexpr const char *kSonames[] = {
    "libhiredis.so.0.14",  "libhiredis.so.1.1.0", "libhiredis.so.1.4.0",
    "libhiredis.so.1.3.0", "libhiredis.so.1.0.0", "libhiredis.so"};

/// A loaded libhiredis.
struct Hiredis {
  void *handle = nullptr;
  std::string soname;
  bool v1 = false; ///< 1.x struct layouts
  Fns::Connect connect = nullptr;
  Fns::SetTimeout setTimeout = nullptr;
  Fns::CommandArgv commandArgv = nullptr;
  Fns::FreeReply freeReply = nullptr;
  Fns::Free free = nullptr;

  Hiredis() = default;
  Hiredis(const Hiredis &) = delete;
  Hiredis &operator=(const Hiredis &) = delete;
  ~Hiredis() {
    if (handle)
      ::dlclose(handle);
  }

  /// Loads $TILEC_HIREDIS_LIBRARY if set (a path or a name), else the
  /// first of kSonames that loads.
  Status load() {
    std::vector<std::string> names(std::begin(kSonames), std::end(kSonames));
    const char *env = std::getenv("TILEC_HIREDIS_LIBRARY");
    if (env && *env)
      names = {env};
    std::string lastError;
    for (const std::string &name : names) {
      void *h = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        const char *e = ::dlerror();
        lastError = e ? e : "unknown dlopen error";
        continue;
      }
      handle = h;
      soname = name;
      break;
    }
    if (!handle && env && *env)
      return Status::error("the fleet cache needs libhiredis: "
                           "TILEC_HIREDIS_LIBRARY '" +
                           std::string(env) +
                           "' could not be loaded: " + lastError);
    if (!handle)
      return Status::error(
          "the fleet cache needs libhiredis (libhiredis.so.0.14 or "
          "libhiredis.so.1.1.0: Debian/Ubuntu packages libhiredis0.14 or "
          "libhiredis1.1.0) and none could be loaded (" +
          lastError + "); install it, or configure no fleet cache");
    auto sym = [&](const char *name, auto &fn) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          ::dlsym(handle, name));
      return fn != nullptr;
    };
    for (auto [name, ok] :
         {std::pair{"redisConnectWithTimeout",
                    sym("redisConnectWithTimeout", connect)},
          std::pair{"redisSetTimeout", sym("redisSetTimeout", setTimeout)},
          std::pair{"redisCommandArgv", sym("redisCommandArgv", commandArgv)},
          std::pair{"freeReplyObject", sym("freeReplyObject", freeReply)},
          std::pair{"redisFree", sym("redisFree", free)}})
      if (!ok)
        return Status::error("the fleet cache cannot use " + soname +
                             ": it lacks " + name);
    v1 = ::dlsym(handle, "redisConnectWithOptions") != nullptr;
    return Status::success();
  }

  int contextErr(HiredisContext *c) const {
    return v1 ? reinterpret_cast<ContextV1 *>(c)->err
              : reinterpret_cast<ContextV0 *>(c)->err;
  }
  std::string contextError(HiredisContext *c) const {
    const char *s = v1 ? reinterpret_cast<ContextV1 *>(c)->errstr
                       : reinterpret_cast<ContextV0 *>(c)->errstr;
    size_t n = ::strnlen(s, 128);
    return n ? std::string(s, n) : std::string("unknown hiredis error");
  }
};

/// What a reply says, read through the loaded version's layout.
struct ReplyView {
  int type = 0;
  long long integer = 0;
  std::string_view str;
};

/// A reply owned until the scope ends (freeReplyObject).
class Reply {
public:
  explicit Reply(const Hiredis &lib) : lib(lib) {}
  Reply(const Reply &) = delete;
  Reply &operator=(const Reply &) = delete;
  ~Reply() {
    if (raw)
      lib.freeReply(raw);
  }
  void reset(void *r) {
    if (raw)
      lib.freeReply(raw);
    raw = r;
  }
  ReplyView view() const {
    ReplyView v;
    if (!raw)
      return v;
    if (lib.v1) {
      auto *r = static_cast<const ReplyV1 *>(raw);
      v.type = r->type;
      v.integer = r->integer;
      if (r->str)
        v.str = std::string_view(r->str, r->len);
    } else {
      auto *r = static_cast<const ReplyV0 *>(raw);
      v.type = r->type;
      v.integer = r->integer;
      if (r->str)
        v.str = std::string_view(r->str, r->len);
    }
    return v;
  }

private:
  const Hiredis &lib;
  void *raw = nullptr;
};

/// Blocks SIGPIPE in this thread while hiredis writes to a socket whose
/// peer may be gone (hiredis writes without MSG_NOSIGNAL; the default action
/// would end the host process), and discards the SIGPIPE that raised.
/// Process-wide signal dispositions are the host's, so none is changed.
class SigpipeGuard {
public:
  SigpipeGuard() {
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    ::sigpending(&pending);
    wasPending = sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &pipeSet, &saved);
  }
  ~SigpipeGuard() {
    if (!wasPending) {
      struct timespec zero = {0, 0};
      while (::sigtimedwait(&pipeSet, nullptr, &zero) == SIGPIPE) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  }
  SigpipeGuard(const SigpipeGuard &) = delete;
  SigpipeGuard &operator=(const SigpipeGuard &) = delete;

private:
  sigset_t pipeSet, saved;
  bool wasPending = false;
};

/// "TILECR" + format version 1, then a NUL: the first 8 bytes of a value.
constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'R', '\1', '\0'};

/// The frame's size before the payload.
size_t headerSize(std::string_view key) {
  return detail::cacheValueHeaderSize(key);
}

/// Why `value` is not a valid value of `key` (empty when it is).
std::string checkValue(std::string_view key, std::string_view value) {
  return detail::checkCacheValue(
      kMagic, key, value,
      "is not a tilec fleet cache value (or of another format version)");
}

Status invalidKey(std::string_view key) {
  return Status::error("invalid cache key '" + std::string(key.substr(0, 64)) +
                       "' (expected 16 to 128 lowercase hex digits)");
}

/// The wall-clock time (HH:MM:SS, local) of steady-clock time `t`.
std::string wallClock(Clock::time_point t) {
  auto wall = std::chrono::system_clock::now() +
              std::chrono::duration_cast<std::chrono::system_clock::duration>(
                  t - Clock::now());
  std::time_t tt = std::chrono::system_clock::to_time_t(wall);
  struct tm tm;
  char buf[16] = "?";
  if (::localtime_r(&tt, &tm))
    std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

bool isDigits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == s.npos;
}

} // namespace

//===----------------------------------------------------------------------===//
// RemoteCache
//===----------------------------------------------------------------------===//

struct RemoteCache::State {
  Hiredis lib;
  Endpoint endpoint;
  std::string url;
  Options options;

  // Guarded by `mutex`.
  std::mutex mutex;
  HiredisContext *ctx = nullptr;
  bool failed = false; ///< a failure started a retry-after window
  Clock::time_point retryAt;
  std::string lastError;

  ~State() {
    if (ctx)
      lib.free(ctx);
  }

  /// Drops the connection and starts the retry-after window.
  Status fail(const std::string &why) {
    if (ctx) {
      lib.free(ctx);
      ctx = nullptr;
    }
    failed = true;
    retryAt = Clock::now() + std::chrono::milliseconds(options.retryAfterMs);
    lastError = why;
    return Status::error("fleet cache " + url + ": " + why);
  }

  timeval timeout() const {
    timeval tv;
    tv.tv_sec = options.timeoutMs / 1000;
    tv.tv_usec = (options.timeoutMs % 1000) * 1000;
    return tv;
  }

  Status connect() {
    if (ctx)
      return Status::success();
    if (failed && Clock::now() < retryAt)
      return Status::error("fleet cache " + url + " unavailable until " +
                           wallClock(retryAt) + " (after: " + lastError + ")");
    HiredisContext *c =
        lib.connect(endpoint.host.c_str(), int(endpoint.port), timeout());
    if (!c)
      return fail("cannot connect: hiredis could not allocate a context");
    if (lib.contextErr(c)) {
      std::string why = lib.contextError(c);
      lib.free(c);
      return fail("cannot connect: " + why);
    }
    ctx = c;
    // Bounds each command (the socket's send and receive timeouts).
    if (lib.setTimeout(ctx, timeout()) != kRedisOk)
      return fail("cannot set the command timeout: " + lib.contextError(ctx));
    if (endpoint.db != 0) {
      Reply reply(lib);
      std::string db = std::to_string(endpoint.db);
      if (Status s = command({"SELECT", db}, reply); !s)
        return s;
      ReplyView v = reply.view();
      if (v.type != kReplyStatus)
        return fail("SELECT " + db + " failed: " +
                    (v.type == kReplyError ? std::string(v.str)
                                           : std::string("unexpected reply")));
    }
    failed = false;
    return Status::success();
  }

  /// Sends `args` (binary-safe) and reads the reply into `out`; a reply
  /// that is a server error is left to the caller. Connects first.
  Status command(std::initializer_list<std::string_view> args, Reply &out) {
    if (Status s = connect(); !s)
      return s;
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (std::string_view a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    void *raw;
    {
      SigpipeGuard guard;
      raw = lib.commandArgv(ctx, int(argv.size()), argv.data(), lengths.data());
    }
    if (!raw)
      return fail(std::string(*args.begin()) +
                  " failed: " + lib.contextError(ctx));
    out.reset(raw);
    return Status::success();
  }
};

RemoteCache::RemoteCache(std::unique_ptr<State> state)
    : state(std::move(state)) {}

RemoteCache::~RemoteCache() = default;

const std::string &RemoteCache::url() const { return state->url; }

Status RemoteCache::parseUrl(std::string_view url, Endpoint &out) {
  out = Endpoint();
  auto bad = [&](const std::string &what) {
    return Status::error("invalid fleet cache URL '" + std::string(url) +
                         "': " + what + " (expected redis://HOST[:PORT][/DB])");
  };
  constexpr std::string_view scheme = "redis://";
  if (url.substr(0, 8) == "rediss:/")
    return bad("TLS (rediss://) is not supported");
  if (url.substr(0, scheme.size()) != scheme)
    return bad("it does not start with redis://");
  std::string_view rest = url.substr(scheme.size());
  if (rest.find('@') != rest.npos)
    return bad("user names and passwords are not supported");
  if (rest.find_first_of("?#") != rest.npos)
    return bad("parameters are not supported");

  std::string_view host;
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    if (close == rest.npos)
      return bad("'[' without ']' around an IPv6 address");
    host = rest.substr(1, close - 1);
    if (host.find(':') == host.npos ||
        host.find_first_not_of("0123456789abcdefABCDEF:.") != host.npos)
      return bad("'" + std::string(host) + "' is not an IPv6 address");
    rest = rest.substr(close + 1);
  } else {
    size_t end = std::min(rest.find_first_of(":/"), rest.size());
    host = rest.substr(0, end);
    if (host.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") !=
            host.npos ||
        host.size() > 253)
      return bad("'" + std::string(host) + "' is not a host name or address");
    rest = rest.substr(end);
  }
  if (host.empty())
    return bad("no host");
  out.host = std::string(host);

  if (!rest.empty() && rest.front() == ':') {
    size_t end = std::min(rest.find('/'), rest.size());
    std::string_view port = rest.substr(1, end - 1);
    if (!isDigits(port) || port.size() > 5 ||
        std::stoul(std::string(port)) == 0 ||
        std::stoul(std::string(port)) > 65535)
      return bad("the port must be 1 to 65535, found '" + std::string(port) +
                 "'");
    out.port = unsigned(std::stoul(std::string(port)));
    rest = rest.substr(end);
  }
  if (!rest.empty() && rest.front() == '/') {
    std::string_view db = rest.substr(1);
    if (!db.empty()) {
      if (!isDigits(db) || db.size() > 9)
        return bad("the database must be a number, found '" + std::string(db) +
                   "'");
      out.db = unsigned(std::stoul(std::string(db)));
    }
    rest = {};
  }
  if (!rest.empty())
    return bad("unexpected '" + std::string(rest) + "' after the host");
  return Status::success();
}

Status RemoteCache::open(const std::string &url, const Options &options,
                         std::unique_ptr<RemoteCache> &out) {
  out.reset();
  auto state = std::make_unique<State>();
  if (Status s = parseUrl(url, state->endpoint); !s)
    return s;
  if (options.timeoutMs == 0)
    return Status::error("fleet cache: the timeout must be at least 1 ms");
  if (Status s = state->lib.load(); !s)
    return s;
  const Endpoint &e = state->endpoint;
  bool ipv6 = e.host.find(':') != std::string::npos;
  state->url = "redis://" + (ipv6 ? "[" + e.host + "]" : e.host) + ":" +
               std::to_string(e.port) + "/" + std::to_string(e.db);
  state->options = options;
  out.reset(new RemoteCache(std::move(state)));
  return Status::success();
}

Status RemoteCache::get(std::string_view key, std::optional<std::string> &out,
                        std::string *note) {
  out.reset();
  if (note)
    note->clear();
  if (!DiskCache::isValidKey(key))
    return invalidKey(key);
  State &st = *state;
  std::string redisKey = st.options.keyPrefix + std::string(key);
  std::string value, why;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    Reply reply(st.lib);
    if (Status s = st.command({"GET", redisKey}, reply); !s)
      return s;
    ReplyView v = reply.view();
    if (v.type == kReplyNil)
      return Status::success();
    if (v.type == kReplyError && v.str.substr(0, 9) == "WRONGTYPE") {
      why = "holds a Redis value of another type";
    } else if (v.type == kReplyError) {
      return st.fail("GET failed: " + std::string(v.str));
    } else if (v.type != kReplyString) {
      return st.fail("GET failed: unexpected reply type " +
                     std::to_string(v.type));
    } else if (v.str.size() > headerSize(key) + st.options.maxValueBytes) {
      // Valid, perhaps, for a process with a larger limit: left in place.
      if (note)
        *note = "fleet cache entry '" + redisKey + "' (" + st.url + ") of " +
                std::to_string(v.str.size()) + " bytes is larger than " +
                std::to_string(st.options.maxValueBytes) +
                " bytes (maxValueBytes); ignored";
      return Status::success();
    } else {
      value.assign(v.str.data(), v.str.size());
    }
  }
  if (why.empty())
    why = checkValue(key, value);
  if (why.empty()) {
    value.erase(0, headerSize(key));
    out = std::move(value);
    return Status::success();
  }
  // A damaged or foreign value: a miss; delete it so that the next put is
  // not shadowed and no other process trips on it. (A good value another
  // process stored between the GET and the DEL is lost: one more compile.)
  std::string deleted = "deleted";
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    Reply reply(st.lib);
    if (Status s = st.command({"DEL", redisKey}, reply); !s)
      deleted = "not deleted: " + s.message();
    else if (ReplyView v = reply.view(); v.type == kReplyError)
      deleted = "not deleted: " + std::string(v.str);
  }
  if (note)
    *note = "fleet cache entry '" + redisKey + "' (" + st.url + ") " + why +
            "; " + deleted;
  return Status::success();
}

Status RemoteCache::put(std::string_view key, std::string_view payload) {
  if (!DiskCache::isValidKey(key))
    return invalidKey(key);
  State &st = *state;
  if (payload.size() > st.options.maxValueBytes)
    return Status::error("fleet cache " + st.url + ": a value of " +
                         std::to_string(payload.size()) +
                         " bytes is larger than " +
                         std::to_string(st.options.maxValueBytes) +
                         " bytes (maxValueBytes); not stored");
  std::string value = detail::frameCacheValue(kMagic, key, payload);
  std::string redisKey = st.options.keyPrefix + std::string(key);

  std::lock_guard<std::mutex> lock(st.mutex);
  Reply reply(st.lib);
  if (Status s = st.command({"SET", redisKey, value}, reply); !s)
    return s;
  ReplyView v = reply.view();
  if (v.type == kReplyError)
    return st.fail("SET failed: " + std::string(v.str));
  if (v.type != kReplyStatus)
    return st.fail("SET failed: unexpected reply type " +
                   std::to_string(v.type));
  return Status::success();
}
