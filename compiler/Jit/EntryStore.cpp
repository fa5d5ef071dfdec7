//===- EntryStore.cpp - The JIT's cache entries on disk and in the fleet ---===//
#include "compiler/Jit/EntryStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

using llvm::StringRef;

namespace tilec {

namespace {

constexpr StringRef kEntryMagic = "tilec-jit-entry 1\n";

void putBlob(std::string &out, StringRef tag, StringRef bytes) {
  out += tag;
  out += ' ';
  out += std::to_string(bytes.size());
  out += '\n';
  out += bytes;
  out += '\n';
}

/// Reads `tag <len>\n<bytes>\n` at `pos`.
bool getBlob(StringRef in, size_t &pos, StringRef tag, std::string &out) {
  StringRef rest = in.drop_front(pos);
  if (!rest.consume_front(tag) || !rest.consume_front(" "))
    return false;
  size_t nl = rest.find('\n');
  if (nl == StringRef::npos)
    return false;
  uint64_t len = 0;
  if (rest.take_front(nl).getAsInteger(10, len))
    return false;
  rest = rest.drop_front(nl + 1);
  if (rest.size() < len + 1 || rest[len] != '\n')
    return false;
  out = rest.take_front(len).str();
  pos = in.size() - rest.size() + len + 1;
  return true;
}

} // namespace

std::string sha256Hex(std::string_view data) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(data.data()), data.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string serializeJitEntry(const JitEntry &e) {
  std::string out(kEntryMagic);
  putBlob(out, "metadata", e.metadataJson);
  putBlob(out, e.cubin ? "cubin" : "ptx", e.image);
  putBlob(out, "deps", std::to_string(e.deps.size()));
  for (const auto &[path, hash] : e.deps) {
    putBlob(out, "path", path);
    putBlob(out, "sha256", hash);
  }
  return out;
}

bool parseJitEntry(std::string_view bytes, JitEntry &e) {
  StringRef in(bytes.data(), bytes.size());
  e = JitEntry();
  if (!in.starts_with(kEntryMagic))
    return false;
  size_t pos = kEntryMagic.size();
  if (!getBlob(in, pos, "metadata", e.metadataJson))
    return false;
  e.cubin = in.drop_front(pos).starts_with("cubin ");
  if (!getBlob(in, pos, e.cubin ? "cubin" : "ptx", e.image))
    return false;
  std::string count;
  uint64_t n = 0;
  if (!getBlob(in, pos, "deps", count) || StringRef(count).getAsInteger(10, n))
    return false;
  for (uint64_t i = 0; i < n; ++i) {
    std::string path, hash;
    if (!getBlob(in, pos, "path", path) || !getBlob(in, pos, "sha256", hash))
      return false;
    e.deps.emplace_back(std::move(path), std::move(hash));
  }
  return pos == in.size();
}

bool jitEntryDepsUnchanged(const JitEntry &e, std::string &changed) {
  for (const auto &[path, hash] : e.deps) {
    if (hash == "absent") {
      if (llvm::sys::fs::exists(path)) {
        changed = path;
        return false;
      }
      continue;
    }
    auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!buf || sha256Hex((*buf)->getBuffer().str()) != hash) {
      changed = path;
      return false;
    }
  }
  return true;
}

EntryStore::EntryStore(DiskCache *disk, RemoteCache *fleet,
                       std::function<void(const std::string &)> note)
    : disk(disk), fleet(fleet), note(std::move(note)) {}

std::optional<JitEntry> EntryStore::usable(const std::string &key,
                                           const std::string &bytes,
                                           const char *where) {
  JitEntry e;
  std::string changed;
  if (!parseJitEntry(bytes, e)) {
    note(std::string("tilec: cache: the ") + where + " entry " + key +
         " is not a JIT entry of this format; rebuilding it");
    return std::nullopt;
  }
  if (!jitEntryDepsUnchanged(e, changed)) {
    note(std::string("tilec: cache: the ") + where + " entry " + key +
         " depends on '" + changed +
         "', which has changed (or appeared) since; recompiling");
    return std::nullopt;
  }
  return e;
}

std::optional<JitEntry> EntryStore::lookup(const std::string &key,
                                           Source &from) {
  if (disk) {
    DiskCache::Lookup found;
    Status s = disk->lookup(key, found);
    if (!found.note.empty())
      note("tilec: cache: " + found.note);
    if (s && found.payload)
      if (std::optional<JitEntry> e = usable(key, *found.payload, "disk")) {
        from = Source::Disk;
        return e;
      }
  }
  if (fleet) {
    std::optional<std::string> payload;
    std::string why;
    Status s = fleet->get(key, payload, &why);
    if (!why.empty())
      note("tilec: fleet cache: " + why);
    if (!s) {
      note("tilec: fleet cache: " + s.message() + " (going on without it)");
      return std::nullopt;
    }
    if (payload)
      if (std::optional<JitEntry> e = usable(key, *payload, "fleet")) {
        from = Source::Fleet;
        if (disk)
          if (Status st = disk->store(key, *payload); !st)
            note("tilec: cache: cannot store entry " + key + ": " +
                 st.message());
        return e;
      }
  }
  return std::nullopt;
}

void EntryStore::store(const std::string &key, const JitEntry &entry) {
  std::string bytes = serializeJitEntry(entry);
  if (disk)
    if (Status s = disk->store(key, bytes); !s)
      note("tilec: cache: cannot store entry " + key + ": " + s.message());
  if (fleet)
    if (Status s = fleet->put(key, bytes); !s)
      note("tilec: fleet cache: " + s.message() + " (going on without it)");
}

void EntryStore::remove(const std::string &key) {
  if (disk)
    (void)disk->remove(key);
}

} // namespace tilec
