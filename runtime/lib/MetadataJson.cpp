//===- MetadataJson.cpp - Kernel metadata as a JSON sidecar -----*- C++ -*-===//
//
// A cubin made by ptxas carries no `// tilec.kernel` comment lines, so its
// kernels' metadata travels next to it in a small JSON file (docs/runtime.md,
// "Kernel metadata sidecar"). The fields are those of the metadata line and
// are validated by the same code (the field parsers of Metadata.cpp), so a
// sidecar accepts exactly what a line accepts and either converts into the
// other. JSON is read and written with nlohmann-json, used only here (it is
// header-only and never reaches an installed header); its exceptions are
// caught, and every error is a Status naming the kernel and the field.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Detail.h"
#include "Guard.h"

#include <nlohmann/json.hpp>

using namespace tilec;

namespace {

using Json = nlohmann::json;

constexpr std::string_view kFormat = "tilec-kernels";
constexpr int kVersion = 1;

/// The JSON text of `value` for a message, cut after 60 characters.
std::string describe(const Json &value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  return text;
}

/// An integer of `value` when it is a JSON integer (not a float, not a
/// string); false otherwise. Values past INT64_MAX read as INT64_MAX, which
/// every range here refuses.
bool integerOf(const Json &value, int64_t &out) {
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    out = u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(u);
    return true;
  }
  if (value.is_number_integer()) {
    out = value.get<int64_t>();
    return true;
  }
  return false;
}

/// One kernel object of the `kernels` array. `where` is "kernel N" until
/// the name is known, then "kernel N 'name'".
Status parseKernel(const Json &entry, size_t index, KernelInfo &out) {
  std::string where = "kernel " + std::to_string(index);
  auto fail = [&](const std::string &why) {
    return Status::error("kernel metadata JSON: " + where + ": " + why);
  };
  if (!entry.is_object())
    return fail("expected an object, found " + describe(entry));
  auto get = [&](const char *key, bool required, const Json *&value) -> Status {
    auto it = entry.find(key);
    value = it == entry.end() ? nullptr : &*it;
    if (!value && required)
      return fail(std::string("missing '") + key + "'");
    return Status::success();
  };
  auto getString = [&](const char *key, bool required,
                       std::string &text) -> Status {
    const Json *value = nullptr;
    if (Status s = get(key, required, value); !s.ok())
      return s;
    if (!value)
      return Status::success();
    if (!value->is_string())
      return fail(std::string("'") + key + "' must be a string, found " +
                  describe(*value));
    text = value->get<std::string>();
    if (text.find_first_of(" \t\r\n") != std::string::npos)
      return fail(std::string("'") + key +
                  "' must not contain whitespace, found " + describe(*value));
    return Status::success();
  };
  // An integer in [lo, hi]; `range` words the expectation.
  auto getInteger = [&](const char *key, bool required, int64_t lo, int64_t hi,
                        const char *range, int64_t &number) -> Status {
    const Json *value = nullptr;
    if (Status s = get(key, required, value); !s.ok())
      return s;
    if (!value)
      return Status::success();
    int64_t v = 0;
    if (!integerOf(*value, v) || v < lo || v > hi)
      return fail(std::string("'") + key + "' must be " + range + ", found " +
                  describe(*value));
    number = v;
    return Status::success();
  };

  KernelInfo info;
  std::string name, tma, launchMaps, signature, aligned, maxnreg;
  if (Status s = getString("name", true, name); !s.ok())
    return s;
  if (!detail::isKernelName(name))
    return fail("'name' must be a kernel name (a PTX identifier), found " +
                describe(Json(name)));
  where += " '" + name + "'";
  int64_t warps = 0, shared = 0, cluster = 1;
  if (Status s =
          getInteger("num_warps", true, 1, 32, "an integer in [1, 32]", warps);
      !s.ok())
    return s;
  if (Status s = getInteger("shared", true, 0, int64_t(UINT32_MAX),
                            "a byte count in [0, 2^32 - 1]", shared);
      !s.ok())
    return s;
  if (Status s = getInteger("cluster", false, 1, 2, "1 or 2 (CTAs per cluster)",
                            cluster);
      !s.ok())
    return s;
  if (Status s = getString("signature", true, signature); !s.ok())
    return s;
  if (Status s = getString("tma", false, tma); !s.ok())
    return s;
  if (Status s = getString("launch_maps", false, launchMaps); !s.ok())
    return s;
  if (Status s = getString("aligned", false, aligned); !s.ok())
    return s;
  if (!aligned.empty() && !detail::isKernelName(aligned))
    return fail("'aligned' must be a kernel name (a PTX identifier), found " +
                describe(Json(aligned)));
  if (Status s = getString("maxnreg", false, maxnreg); !s.ok())
    return s;
  if (!maxnreg.empty() && maxnreg != "auto")
    return fail("'maxnreg' must be \"auto\" (or absent), found " +
                describe(Json(maxnreg)));

  info.name = name;
  info.numWarps = unsigned(warps);
  info.sharedBytes = uint32_t(shared);
  info.clusterSize = unsigned(cluster);
  info.alignedVariant = aligned;
  info.autoMaxNReg = maxnreg == "auto";
  info.signatureText = signature;
  // The line's field parsers, and their messages ("signature entry 3 ...",
  // "bad tma '...': ...", "bad launch_maps '...': ...").
  if (Status s = Signature::parse(signature, info.signature); !s.ok())
    return fail(s.message());
  if (!tma.empty())
    if (Status s = detail::parseTMAField(tma, info.signature); !s.ok())
      return fail(s.message());
  if (!launchMaps.empty())
    if (Status s = detail::parseLaunchMapsField(launchMaps, info); !s.ok())
      return fail(s.message());
  out = std::move(info);
  return Status::success();
}

} // namespace

std::string
tilec::kernelMetadataToJson(const std::vector<KernelInfo> &kernels) {
  // ordered_json keeps the schema's key order.
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["kernels"] = nlohmann::ordered_json::array();
  for (const KernelInfo &k : kernels) {
    nlohmann::ordered_json entry;
    entry["name"] = k.name;
    entry["num_warps"] = k.numWarps;
    entry["shared"] = k.sharedBytes;
    entry["cluster"] = k.clusterSize;
    entry["signature"] = detail::signatureTextOf(k);
    entry["tma"] = detail::formatTMAField(k.signature);
    entry["launch_maps"] = detail::formatLaunchMapsField(k);
    if (!k.alignedVariant.empty())
      entry["aligned"] = k.alignedVariant;
    if (k.autoMaxNReg)
      entry["maxnreg"] = "auto";
    doc["kernels"].push_back(std::move(entry));
  }
  // A name that is not UTF-8 (never one the parsers accept) is written
  // with U+FFFD instead of throwing.
  return doc.dump(2, ' ', false,
                  nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

Status tilec::parseKernelMetadataJson(std::string_view json,
                                      std::vector<KernelInfo> &out) {
  return detail::guarded([&]() -> Status {
    auto fail = [](const std::string &why) {
      return Status::error("kernel metadata JSON: " + why);
    };
    if (json.find_first_not_of(" \t\r\n") == std::string_view::npos)
      return fail("the text is empty (expected an object with \"format\": "
                  "\"tilec-kernels\")");
    Json doc;
    try {
      doc = Json::parse(json.begin(), json.end());
    } catch (const Json::parse_error &e) {
      // e.what() is "[json.exception.parse_error.101] parse error at line
      // 1, column 2: ...": keep the part after the tag.
      std::string what = e.what();
      size_t tag = what.find("] ");
      return fail("not valid JSON: " +
                  (tag == std::string::npos ? what : what.substr(tag + 2)));
    }
    if (!doc.is_object())
      return fail("expected an object at the top level, found " +
                  describe(doc));
    auto format = doc.find("format");
    if (format == doc.end())
      return fail("missing 'format' (expected \"" + std::string(kFormat) +
                  "\")");
    if (!format->is_string() || format->get<std::string>() != kFormat)
      return fail("'format' must be \"" + std::string(kFormat) + "\", found " +
                  describe(*format));
    auto version = doc.find("version");
    if (version == doc.end())
      return fail("missing 'version' (expected " + std::to_string(kVersion) +
                  ")");
    int64_t v = 0;
    if (!integerOf(*version, v) || v != kVersion)
      return fail("unsupported 'version' " + describe(*version) +
                  ": this runtime reads version " + std::to_string(kVersion));
    auto list = doc.find("kernels");
    if (list == doc.end())
      return fail("missing 'kernels'");
    if (!list->is_array())
      return fail("'kernels' must be an array, found " + describe(*list));

    std::vector<KernelInfo> kernels;
    kernels.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
      KernelInfo info;
      if (Status s = parseKernel((*list)[i], i, info); !s.ok())
        return s;
      for (size_t j = 0; j < kernels.size(); ++j)
        if (kernels[j].name == info.name)
          return fail("kernel " + std::to_string(i) + " '" + info.name +
                      "': a second kernel of that name (kernel " +
                      std::to_string(j) + ")");
      kernels.push_back(std::move(info));
    }
    out = std::move(kernels);
    return Status::success();
  });
}

std::string tilec::kernelMetadataSidecarPath(std::string_view path) {
  constexpr std::string_view kCubin = ".cubin";
  if (path.size() >= kCubin.size() &&
      path.substr(path.size() - kCubin.size()) == kCubin)
    path.remove_suffix(kCubin.size());
  return std::string(path) + ".json";
}
