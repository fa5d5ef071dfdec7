//===- Modules.cpp - Imports across Python modules and packages -*- C++ -*-===//
//
// A kernel file's helpers may live in other modules of its package, as they
// do in real kernel libraries: `import pkg.utils as u` then `u.helper(x)`,
// `from .utils import helper`, re-exports in an `__init__.py`. A module is
// found on the import path (the kernel file's folder, then `-I DIR`s and
// TILEC_PYTHONPATH) as `a/b.py` or `a/b/__init__.py`, parsed on first use
// with the same parser (which keeps jit functions, constants and imports
// and skips host code), and gets its own scope of module-level names. A
// jit function runs with its own module's names: `cur` switches to it
// while it is inlined. Modules that are not found (torch, a library's host
// runtime) are errors only where a jit function uses them. Every file and
// folder is looked up and read through KernelOptions::fileSystem (the real
// file system by default), so a host application or the fuzzer can compile
// a package held in memory.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"
#include "compiler/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstring>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

namespace {
/// The most modules one kernel may read (untrusted input: a chain of
/// imports must end quickly).
constexpr size_t kMaxModules = 256;
/// The largest module file read, and all modules together, in bytes
/// (parsing costs ~30x the text in memory).
constexpr uint64_t kMaxModuleBytes = 16 << 20;
constexpr uint64_t kMaxTotalModuleBytes = 32 << 20;

/// `a.b` of `base` and `rel` (either may be empty).
std::string joinDotted(llvm::StringRef base, llvm::StringRef rel) {
  if (base.empty())
    return rel.str();
  if (rel.empty())
    return base.str();
  return (base + "." + rel).str();
}

/// Whether `path` is an existing regular file of `fs` (symbolic links
/// followed).
bool isFile(llvm::vfs::FileSystem &fs, const llvm::Twine &path) {
  llvm::ErrorOr<llvm::vfs::Status> st = fs.status(path);
  return st && st->isRegularFile();
}

/// Whether `path` is an existing folder of `fs`.
bool isDirectory(llvm::vfs::FileSystem &fs, const llvm::Twine &path) {
  llvm::ErrorOr<llvm::vfs::Status> st = fs.status(path);
  return st && st->isDirectory();
}
} // namespace

llvm::vfs::FileSystem &CodeGen::fileSystem() {
  if (!fs)
    fs = options.fileSystem ? options.fileSystem
                            : llvm::vfs::getRealFileSystem();
  return *fs;
}

const std::vector<std::string> &CodeGen::importSearchPath() {
  // Computed once: the options and the kernel file do not change.
  if (searchPath)
    return *searchPath;
  searchPath.emplace();
  // The kernel file's folder, when it is a file (a buffer compiled from
  // memory or stdin has none: the working directory is not searched).
  if (isFile(fileSystem(), module.fileName)) {
    llvm::SmallString<256> own(module.fileName);
    llvm::sys::path::remove_filename(own);
    searchPath->push_back(own.empty() ? "." : std::string(own));
  }
  for (const std::string &d : options.importPaths)
    if (!d.empty())
      searchPath->push_back(d);
  return *searchPath;
}

const py::FunctionDef *CodeGen::lookupHostFunction(ModuleScope &m,
                                                   llvm::StringRef name) {
  const auto &fns = m.ast->hostFunctions;
  for (auto it = fns.rbegin(); it != fns.rend(); ++it)
    if ((*it)->name == name && guardHolds(m, (*it)->guard))
      return it->get();
  return nullptr;
}

const py::FunctionDef *CodeGen::jitByCall(ModuleScope &m,
                                          const py::ModuleConstant &c) {
  auto *call = llvm::dyn_cast_or_null<py::Call>(c.value.get());
  if (!call || call->args.size() != 1 || call->hasStarArgs() ||
      call->hasDoubleStarArgs())
    return nullptr;
  // `k = triton.heuristics({...})(k)` (unsloth): k as bound before, the
  // heuristics being launch-time constexprs tilec takes from -D.
  if (auto *inner = llvm::dyn_cast<py::Call>(call->func.get());
      inner &&
      llvm::StringRef(py::toString(*inner->func)).ends_with("heuristics")) {
    auto *arg = llvm::dyn_cast<py::Name>(call->args.front().get());
    if (!arg)
      return nullptr;
    auto g = m.globals.find(arg->id);
    if (g != m.globals.end() && g->second.kind == PyValue::Kind::JitFunction)
      return g->second.fn;
    return m.ast->lookupFunction(arg->id);
  }
  if (!py::isJitDecorator(*call->func))
    return nullptr;
  auto *name = llvm::dyn_cast<py::Name>(call->args.front().get());
  if (!name)
    return nullptr;
  if (const py::FunctionDef *jit = m.ast->lookupFunction(name->id))
    return jit; // triton.jit of a jit function: itself
  return lookupHostFunction(m, name->id);
}

bool CodeGen::guardHolds(ModuleScope &m, const py::ModuleGuard &guard) {
  std::optional<bool> state = guardState(m, guard);
  return state && *state;
}

std::optional<bool> CodeGen::guardState(ModuleScope &m,
                                        const py::ModuleGuard &guard) {
  bool unknown = false;
  for (auto [test, want] : guard) {
    auto known = guardResults.find(test);
    if (known == guardResults.end() && m.ast->tryTests.count(test))
      known = guardResults.emplace(test, std::nullopt).first; // bindModule's
    if (known == guardResults.end()) {
      // Evaluated quietly in the module's scope: a condition tilec cannot
      // decide (torch.cuda.device_count() > 1, `__name__`) holds neither way,
      // and the definitions under it stay unread, as before.
      std::optional<bool> result;
      {
        // Quiet, except for an exception host code raised: then Python's
        // import fails, and so does the compile.
        hostRaised = false;
        ScopedDiagnosticHandler quiet(ctx, [this](Diagnostic &) {
          if (!hostRaised)
            return success();
          importRaised = true;
          return failure(); // to the outer handler: reported
        });
        ModuleScope *saveModule = cur;
        cur = &m;
        std::map<std::string, PyValue> saved;
        std::swap(saved, scope);
        auto saveStack = callStack;
        callStack.clear();
        Block scratch; // ops a condition makes have no place at module level
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&scratch);
        moduleRunPoints.push_back({&m, test->loc, "the module-level test"});
        auto v = eval(*test);
        moduleRunPoints.pop_back();
        if (succeeded(v) && v->isConstexpr())
          if (auto t = truthiness(*v, test->loc); succeeded(t))
            result = *t;
        for (Operation &op :
             llvm::make_early_inc_range(llvm::reverse(scratch))) {
          op.dropAllUses();
          op.erase();
        }
        callStack = saveStack;
        std::swap(saved, scope);
        cur = saveModule;
      }
      known = guardResults.emplace(test, result).first;
    }
    if (!known->second)
      unknown = true;
    else if (*known->second != want)
      return false;
  }
  if (unknown)
    return std::nullopt;
  return true;
}

std::string CodeGen::importSource(const ModuleScope &m,
                                  const py::Import &imp) {
  // `from ..x import y` in package `p.q`: module `p.x`.
  if (!imp.isFrom || imp.level == 0)
    return imp.module;
  llvm::StringRef base(m.package);
  bool ok = !m.package.empty();
  for (unsigned k = 1; ok && k < imp.level; ++k) {
    if (!base.contains('.'))
      ok = false;
    base = base.rsplit('.').first;
  }
  // Unresolvable: kept relative, an error where it is used.
  return ok ? joinDotted(base, imp.module)
            : std::string(imp.level, '.') + imp.module;
}

bool CodeGen::isNamespacePackage(const std::string &dotted) {
  llvm::SmallString<128> rel;
  for (llvm::StringRef part : llvm::split(dotted, '.')) {
    if (part.empty() || part == "." || part == "..")
      return false;
    llvm::sys::path::append(rel, part);
  }
  for (const std::string &dir : importSearchPath()) {
    llvm::SmallString<256> d(dir), init;
    llvm::sys::path::append(d, rel);
    init = d;
    llvm::sys::path::append(init, "__init__.py");
    if (isDirectory(fileSystem(), d) && !isFile(fileSystem(), init))
      return true;
  }
  return false;
}

LogicalResult CodeGen::bindModule(ModuleScope &m) {
  // The kernel file's own name: the first import-path folder it lies under
  // in packages names it, so that its relative imports resolve.
  if (&m == moduleScopes.front().get()) {
    m.name = "__main__";
    llvm::SmallString<256> file(module.fileName);
    (void)fileSystem().makeAbsolute(file);
    llvm::sys::path::remove_dots(file, /*remove_dot_dot=*/true);
    for (const std::string &d : options.importPaths) {
      llvm::SmallString<256> dir(d);
      (void)fileSystem().makeAbsolute(dir);
      llvm::sys::path::remove_dots(dir, true);
      llvm::StringRef rest(file);
      if (dir.empty() || !rest.consume_front(dir) ||
          !llvm::sys::path::is_separator(rest.empty() ? 'x' : rest.front()))
        continue;
      rest = rest.drop_front();
      if (!rest.consume_back(".py"))
        continue;
      std::string dotted = rest.str();
      std::replace(dotted.begin(), dotted.end(), '/', '.');
      llvm::StringRef name(dotted);
      bool init = name == "__init__" || name.ends_with(".__init__");
      if (init)
        dotted = name == "__init__" ? "" : name.drop_back(9).str();
      if (dotted.empty())
        continue; // the import-path folder's own __init__.py
      m.name = dotted;
      m.package = init ? dotted
                       : (llvm::StringRef(dotted).contains('.')
                              ? llvm::StringRef(dotted).rsplit('.').first.str()
                              : std::string());
      modulesByName[dotted] = &m;
      // Its package's submodules are the files beside it.
      if (!m.package.empty()) {
        llvm::SmallString<256> own(file);
        llvm::sys::path::remove_filename(own);
        packageDirs.try_emplace(m.package, std::string(own));
      }
      break;
    }
  }
  // Bindings in source order, so that the last one wins, as in Python
  // (`from x import C` then `C = 3` is 3): each records where it was made,
  // and an earlier one never replaces a later one.
  std::map<std::string, std::pair<unsigned, unsigned>> boundAt;
  auto later = [&](const std::string &name, SourceLoc at) {
    auto key = std::make_pair(at.line, at.col);
    auto [it, fresh] = boundAt.try_emplace(name, key);
    if (!fresh && it->second > key)
      return false;
    it->second = key;
    return true;
  };
  auto bindValue = [&](const std::string &name, SourceLoc at, PyValue v) {
    if (!later(name, at))
      return;
    m.globals[name] = std::move(v);
    m.pendingConstants.erase(name);
  };
  auto bindImport = [&](const py::Import &imp) {
    std::string from = importSource(m, imp);
    for (const py::Import::Alias &a : imp.names) {
      if (!imp.isFrom) {
        // `import a.b` binds `a`; `import a.b as c` binds c -> a.b.
        std::string bound = imp.boundName(a);
        bindValue(bound, a.loc,
                  PyValue::module(a.asName.empty() ? bound : a.name));
        continue;
      }
      std::string bound = a.asName.empty() ? a.name : a.asName;
      if (a.name == "*") {
        m.starImports.push_back(from);
        continue;
      }
      // `from triton import language as tl`: a submodule or an attribute.
      std::string path = from + "." + a.name;
      if (path == "triton.language" || path == "triton.language.math" ||
          path == "triton.language.extra" || path == "triton.language.core" ||
          path == "triton.language.standard" ||
          path == "triton.language.extra.cuda" ||
          path == "triton.language.extra.libdevice" ||
          path == "triton.language.extra.cuda.libdevice")
        bindValue(bound, a.loc, PyValue::module(path));
      else
        bindValue(bound, a.loc, PyValue::module("from:" + from + ":" + a.name));
    }
  };
  auto bindFunction = [&](const py::FunctionDef *fn) {
    PyValue f;
    f.kind = PyValue::Kind::JitFunction;
    f.fn = fn;
    bindValue(fn->name, fn->loc, f);
    moduleOfFunction[fn] = &m;
  };
  auto bindConstant = [&](const py::ModuleConstant &c) {
    // `k = triton.jit(fn)`: fn (a host-looking def) is a jit function.
    if (const py::FunctionDef *fn = jitByCall(m, c)) {
      PyValue f;
      f.kind = PyValue::Kind::JitFunction;
      f.fn = fn;
      bindValue(c.name, c.loc, f);
      moduleOfFunction[fn] = &m;
      return;
    }
    if (later(c.name, c.loc)) {
      m.pendingConstants[c.name] = &c;
      m.globals.erase(c.name);
    }
  };
  // Unconditional definitions first; then those under module-level ifs, in
  // source order, each if its conditions hold (they may use earlier ones).
  std::vector<std::tuple<std::pair<unsigned, unsigned>, int, const void *>>
      guarded;
  for (const py::Import &imp : m.ast->imports)
    if (imp.guard.empty())
      bindImport(imp);
    else
      guarded.push_back({{imp.loc.line, imp.loc.col}, 0, &imp});
  for (const auto &fn : m.ast->functions)
    if (fn->guard.empty())
      bindFunction(fn.get());
    else
      guarded.push_back({{fn->loc.line, fn->loc.col}, 1, fn.get()});
  for (const py::ModuleConstant &c : m.ast->constants)
    if (c.guard.empty())
      bindConstant(c);
    else
      guarded.push_back({{c.loc.line, c.loc.col}, 2, &c});
  std::sort(guarded.begin(), guarded.end(), [](const auto &a, const auto &b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  // Definitions under ifs tilec cannot decide and in top-level trys, by the
  // name they bind.
  struct Candidate {
    const py::ModuleGuard *guard;
    std::function<void()> bind;
    std::pair<unsigned, unsigned> at; ///< where it binds (line, column)
    bool isImport = false;
    /// `import a.b` / `import a.b as c`: the module, which must be found.
    std::string plainModule;
    /// `from M import X`: M (resolved) and X.
    std::string fromModule, fromName;
    std::optional<PyValue> resolved; ///< what the name is, if it resolves
  };
  std::map<std::string, std::vector<Candidate>> undecided;
  for (auto &[at, kind, item] : guarded) {
    if (kind == 0) {
      auto &imp = *static_cast<const py::Import *>(item);
      std::optional<bool> state = guardState(m, imp.guard);
      if (state && *state)
        bindImport(imp);
      else if (!state)
        for (const py::Import::Alias &a : imp.names) {
          if (a.name == "*")
            continue;
          py::Import one = imp;
          one.names = {a};
          undecided[imp.boundName(a)].push_back(
              {&imp.guard, [&bindImport, one] { bindImport(one); },
               {a.loc.line, a.loc.col}, true,
               imp.isFrom ? std::string() : a.name,
               imp.isFrom ? importSource(m, imp) : std::string(),
               imp.isFrom ? a.name : std::string()});
        }
    } else if (kind == 1) {
      auto *fn = static_cast<const py::FunctionDef *>(item);
      std::optional<bool> state = guardState(m, fn->guard);
      if (state && *state)
        bindFunction(fn);
      else if (!state)
        undecided[fn->name].push_back(
            {&fn->guard, [&bindFunction, fn] { bindFunction(fn); }, at});
    } else {
      auto &c = *static_cast<const py::ModuleConstant *>(item);
      std::optional<bool> state = guardState(m, c.guard);
      if (state && *state)
        bindConstant(c);
      else if (!state)
        undecided[c.name].push_back(
            {&c.guard, [&bindConstant, &c] { bindConstant(c); }, at});
    }
  }
  // A name some definition binds under an if tilec cannot decide, or in a
  // top-level try, is what Python would bind on every way those tests may
  // go, when that is one thing (Liger-Kernel: `if compare_version("triton",
  // ...) and not is_npu_available(): from triton.language.extra.libdevice
  // import tanh` / `else: from triton.language.math import tanh`):
  //  - an import that does not resolve under Triton 3.6 and the import path
  //    (only those are installed, as far as tilec can tell) would raise, so
  //    a way that runs it cannot be the one taken;
  //  - a try body raises if one of its definitions does not resolve (such an
  //    import, `f = tl.no_such_function`); its test is then false (the
  //    handlers run), else true;
  //  - on each way, the last definition in source order that runs gives
  //    the value, the last one tilec could decide (before or after)
  //    included; a constant tilec cannot evaluate there leaves it unknown;
  //  - the values must be one value, or one math function from different
  //    modules of Triton's versions (tl.X, tl.math.X, libdevice.X).
  // Otherwise the name is not defined, and its use says so.
  static const py::ModuleGuard kAlways;
  for (auto &[name, cands] : undecided) {
    auto resolve = [&](Candidate &c) {
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      auto v = lookupGlobal(m, name, py::SourceLoc{});
      if (succeeded(v) && *v)
        c.resolved = **v;
      // A host-side name of a Triton module tilec does not model
      // (`from triton.tools.tensor_descriptor import TensorDescriptor`):
      // Triton 3.6 has the module, so the import is taken to succeed; the
      // name stays unusable in a kernel. triton.language's names tilec
      // lacks are taken to be newer Triton's (an ImportError).
      StringRef from(c.fromModule);
      if (!c.resolved && isTritonModule(from) &&
          tritonModuleExists(from) && from != "triton.language" &&
          !from.starts_with("triton.language."))
        c.resolved = PyValue::module("from:" + c.fromModule + ":" + c.fromName);
      if (c.resolved && !c.plainModule.empty() &&
          !isTritonModule(c.plainModule)) {
        auto found = loadModule(c.plainModule, py::SourceLoc{});
        if (failed(found) || !*found)
          c.resolved.reset();
      } else if (isTritonModule(c.plainModule) &&
                 !tritonModuleExists(c.plainModule)) {
        c.resolved.reset(); // `import triton.ops` under Triton 3.6
      }
    };
    auto unbind = [&] {
      m.globals.erase(name);
      m.pendingConstants.erase(name);
      boundAt.erase(name);
    };
    // The last definition tilec could decide: a candidate that always runs.
    if (auto b = boundAt.find(name); b != boundAt.end()) {
      Candidate d{&kAlways, nullptr, b->second};
      resolve(d);
      unbind();
      cands.push_back(std::move(d));
    }
    for (Candidate &c : cands) {
      if (!c.bind)
        continue;
      c.bind();
      resolve(c);
      unbind();
    }
    std::stable_sort(cands.begin(), cands.end(),
                     [](const Candidate &a, const Candidate &b) {
                       return a.at < b.at;
                     });
  }
  std::map<const py::Expr *, bool> forced; // try tests
  for (const py::Expr *t : m.ast->tryTests)
    forced[t] = true;
  for (auto &[name, cands] : undecided)
    for (const Candidate &c : cands)
      for (auto [test, want] : *c.guard)
        if (want && m.ast->tryTests.count(test) && !c.resolved)
          forced[test] = false;
  for (auto &[name, cands] : undecided) {
    std::vector<const py::Expr *> tests; // undecided, not try tests
    for (const Candidate &c : cands)
      for (auto [test, want] : *c.guard) {
        auto r = guardResults.find(test);
        if (!forced.count(test) && r != guardResults.end() && !r->second &&
            !llvm::is_contained(tests, test))
          tests.push_back(test);
      }
    if (tests.size() > 10)
      continue;
    std::optional<PyValue> chosen;
    std::string chosenKey;
    bool bound = true, possible = false;
    for (unsigned bits = 0; bound && bits < (1u << tests.size()); ++bits) {
      auto holds = [&](const Candidate &c) {
        return llvm::all_of(*c.guard, [&](auto tw) {
          if (auto f = forced.find(tw.first); f != forced.end())
            return f->second == tw.second;
          auto r = guardResults.find(tw.first);
          if (r != guardResults.end() && r->second)
            return *r->second == tw.second;
          size_t k = llvm::find(tests, tw.first) - tests.begin();
          return k < tests.size() && bool(bits >> k & 1) == tw.second;
        });
      };
      const Candidate *last = nullptr;
      bool raises = false;
      for (const Candidate &c : cands)
        if (holds(c)) {
          if (c.isImport && !c.resolved)
            raises = true;
          last = &c;
        }
      if (raises)
        continue; // an ImportError: not the way Python goes
      possible = true;
      std::optional<std::string> key;
      if (last && last->resolved)
        key = sameValueKey(*last->resolved);
      if (!key || (chosen && *key != chosenKey)) {
        bound = false;
        break;
      }
      if (!chosen) {
        chosen = last->resolved;
        chosenKey = *key;
      }
    }
    if (bound && possible && chosen)
      m.globals[name] = *chosen;
  }
  return success();
}

std::optional<std::pair<std::string, std::string>>
frontend::fromImportParts(const PyValue &v) {
  if (v.kind != PyValue::Kind::Module || v.s.rfind("from:", 0) != 0)
    return std::nullopt;
  size_t colon = v.s.rfind(':');
  return std::make_pair(v.s.substr(5, colon - 5), v.s.substr(colon + 1));
}

std::optional<std::string> CodeGen::sameValueKey(const PyValue &v) {
  using K = PyValue::Kind;
  switch (v.kind) {
  case K::Builtin: {
    llvm::StringRef n(v.s);
    if (!n.consume_front("libdevice.") && !n.consume_front("tl.math."))
      (void)n.consume_front("tl.");
    return "fn:" + n.str();
  }
  case K::JitFunction:
    return "jit:" + std::to_string(reinterpret_cast<uintptr_t>(v.fn));
  case K::Tuple: {
    std::string key = "(";
    for (const PyValue &e : v.elts) {
      std::optional<std::string> k = sameValueKey(e);
      if (!k)
        return std::nullopt;
      key += *k + ",";
    }
    return key + ")";
  }
  case K::Module:
    return "module:" + v.s;
  case K::Float: {
    uint64_t bits;
    std::memcpy(&bits, &v.f, sizeof bits);
    return "float:" + std::to_string(bits);
  }
  case K::None:
  case K::Int:
  case K::Bool:
  case K::Str:
  case K::DType:
    return "value:" + v.describe();
  default:
    return std::nullopt;
  }
}

FailureOr<CodeGen::ModuleScope *> CodeGen::loadModule(const std::string &dotted,
                                                      SourceLoc l) {
  auto known = modulesByName.find(dotted);
  if (known != modulesByName.end())
    return known->second;
  if (dotted.empty() || dotted.front() == '.')
    return static_cast<ModuleScope *>(nullptr);
  // a.b.c -> a/b/c.py or a/b/c/__init__.py, the first folder that has it.
  llvm::SmallString<128> rel;
  for (llvm::StringRef part : llvm::split(dotted, '.')) {
    if (part.empty() || part == "." || part == "..")
      return static_cast<ModuleScope *>(nullptr);
    llvm::sys::path::append(rel, part);
  }
  // A submodule of a package lives in the package's folder (Python's
  // __path__), whichever import-path entry the package came from; other
  // names are searched on the import path. In each folder a package
  // (a/__init__.py) wins over a module (a.py), as CPython's finder has it.
  std::vector<std::string> dirs = importSearchPath();
  llvm::SmallString<128> leaf(rel);
  if (llvm::StringRef(dotted).contains('.')) {
    std::string parent = llvm::StringRef(dotted).rsplit('.').first.str();
    if (!packageDirs.count(parent)) {
      auto p = loadModule(parent, l);
      if (failed(p))
        return failure();
    }
    auto pd = packageDirs.find(parent);
    if (pd != packageDirs.end()) {
      dirs = {pd->second};
      leaf = llvm::StringRef(dotted).rsplit('.').second;
    }
  }
  std::string found;
  bool isPackage = false;
  for (const std::string &dir : dirs) {
    llvm::SmallString<256> file(dir), init(dir);
    llvm::sys::path::append(file, leaf.str() + ".py");
    llvm::sys::path::append(init, leaf, "__init__.py");
    if (isFile(fileSystem(), init)) {
      found = std::string(init);
      isPackage = true;
      break;
    }
    if (isFile(fileSystem(), file)) {
      found = std::string(file);
      break;
    }
  }
  if (found.empty())
    return static_cast<ModuleScope *>(nullptr);
  if (moduleScopes.size() >= kMaxModules) {
    error(l) << "importing '" << dotted << "' reads more than " << kMaxModules
             << " modules";
    return failure();
  }
  uint64_t size = 0;
  if (llvm::ErrorOr<llvm::vfs::Status> st = fileSystem().status(found))
    size = st->getSize();
  if (size > kMaxModuleBytes) {
    error(l) << "module '" << dotted << "' (" << found << ") is " << size
             << " bytes, more than the " << kMaxModuleBytes << " read";
    return failure();
  }
  if (moduleBytesRead + size > kMaxTotalModuleBytes) {
    error(l) << "importing '" << dotted << "' reads more than "
             << kMaxTotalModuleBytes << " bytes of modules in all";
    return failure();
  }
  moduleBytesRead += size;
  auto buffer = fileSystem().getBufferForFile(
      found, /*FileSize=*/-1, /*RequiresNullTerminator=*/true,
      /*IsVolatile=*/false, /*IsText=*/true);
  if (!buffer) {
    error(l) << "cannot read module '" << dotted << "' (" << found
             << "): " << buffer.getError().message();
    return failure();
  }
  py::ParseResult parsed = py::parseModule((*buffer)->getBuffer(), found);
  auto m = std::make_unique<ModuleScope>();
  m->fileName = StringAttr::get(ctx, found);
  if (!parsed.succeeded()) {
    for (const py::Diagnostic &d : parsed.diagnostics)
      emitError(FileLineColLoc::get(m->fileName, d.loc.line, d.loc.col))
          << d.message;
    error(l) << "module '" << dotted << "' (" << found << ") does not parse";
    return failure();
  }
  m->owned = std::move(parsed.module);
  m->ast = m->owned.get();
  m->name = dotted;
  m->package =
      isPackage ? dotted : llvm::StringRef(dotted).rsplit('.').first.str();
  if (!isPackage && !llvm::StringRef(dotted).contains('.'))
    m->package.clear();
  ModuleScope *raw = m.get();
  moduleScopes.push_back(std::move(m));
  modulesByName[dotted] = raw;
  if (isPackage) {
    llvm::SmallString<256> dir(found);
    llvm::sys::path::remove_filename(dir);
    packageDirs[dotted] = std::string(dir);
  }
  if (failed(bindModule(*raw)))
    return failure();
  return raw;
}

LogicalResult CodeGen::checkReadOrder(ModuleScope &m, const std::string &name,
                                      SourceLoc use) {
  const ModuleRunPoint *run = nullptr;
  for (auto it = moduleRunPoints.rbegin(); it != moduleRunPoints.rend(); ++it)
    if (it->module == &m) {
      run = &*it;
      break;
    }
  if (!run)
    return success(); // m has run to its end: its last bindings hold
  auto at = std::make_pair(run->at.line, run->at.col);
  // A binding at or after the reader that tilec took (unconditional, or
  // under ifs known to hold) makes the value tilec has differ from the one
  // Python reads there. One under an undecided if is not taken before
  // bindModule reaches it, and the candidates' rules handle it after.
  auto taken = [&](const py::ModuleGuard &guard) {
    return llvm::all_of(guard, [&](auto tw) {
      auto r = guardResults.find(tw.first);
      return r != guardResults.end() && r->second && *r->second == tw.second;
    });
  };
  if (!m.bindings) {
    auto &index = m.bindings.emplace();
    for (const py::Import &imp : m.ast->imports)
      for (const py::Import::Alias &a : imp.names)
        if (a.name != "*")
          index[imp.boundName(a)].push_back({a.loc, &imp.guard});
    for (const auto *fns : {&m.ast->functions, &m.ast->hostFunctions})
      for (const auto &fn : *fns)
        index[fn->name].push_back({fn->loc, &fn->guard});
    for (const py::ModuleConstant &c : m.ast->constants)
      index[c.name].push_back({c.loc, &c.guard});
  }
  auto found = m.bindings->find(name);
  if (found == m.bindings->end())
    return success();
  std::optional<SourceLoc> before, after;
  for (const auto &[l, guard] : found->second) {
    if (std::make_pair(l.line, l.col) < at) {
      if (!before || before->line < l.line)
        before = l;
    } else if (taken(*guard) &&
               (!after || std::make_pair(l.line, l.col) <
                              std::make_pair(after->line, after->col))) {
      after = l;
    }
  }
  if (!after)
    return success();
  if (!before && after->line == run->at.line && after->col == run->at.col)
    return success(); // `X = X + 1` alone: "refers to itself", below
  auto d = error(use);
  if (!before) {
    d << "name '" << name << "' is read by " << run->reader << " (line "
      << run->at.line << ") before it is assigned (line " << after->line
      << "): Python raises NameError as the module runs";
  } else {
    d << "unimplemented: " << run->reader << " (line " << run->at.line
      << ") reads module variable '" << name << "' as line " << before->line
      << " binds it, and line " << after->line
      << " binds it again; tilec keeps only a module variable's last value, "
         "so give the two values different names";
  }
  if (m.ast != &module)
    d << " (in " << m.fileName.getValue() << ")";
  return failure();
}

const py::ModuleConstant *CodeGen::boundConstant(ModuleScope &m,
                                                 const std::string &name) {
  if (auto it = m.pendingConstants.find(name); it != m.pendingConstants.end())
    return it->second;
  const auto &cs = m.ast->constants;
  for (auto it = cs.rbegin(); it != cs.rend(); ++it)
    if (it->name == name && (it->guard.empty() || guardHolds(m, it->guard)))
      return &*it;
  return nullptr;
}

FailureOr<std::optional<PyValue>>
CodeGen::lookupGlobal(ModuleScope &m, const std::string &name, SourceLoc l) {
  if (failed(checkReadOrder(m, name, l)))
    return failure();
  auto g = m.globals.find(name);
  if (g != m.globals.end()) {
    // `from M import X`: X resolves as `M.X` where it is used.
    PyValue v = g->second;
    if (auto parts = fromImportParts(v)) {
      auto [from, attr] = *parts;
      std::string key = m.name + ":" + name;
      if (llvm::is_contained(resolvingImports, key)) {
        error(l) << "import cycle: '" << name << "' of module '" << m.name
                 << "' is imported from '" << from
                 << "', which leads back to it";
        return failure();
      }
      if (resolvingImports.size() >= 256) {
        error(l) << "imports re-exported more than 256 deep (at '" << name
                 << "')";
        return failure();
      }
      resolvingImports.push_back(key);
      struct Pop {
        std::vector<std::string> &v;
        ~Pop() { v.pop_back(); }
      } pop{resolvingImports};
      if (from == m.name) {
        // `from hs import base as alias` in hs.py: one of its own names;
        // `from . import sub` in package P's __init__: the submodule P.sub
        // (P's attribute `sub` is this very binding).
        if (attr != name) {
          TRY(own, lookupGlobal(m, attr, l));
          if (own)
            return std::optional<PyValue>(*own);
        }
        TRY(sub, loadModule(joinDotted(from, attr), l));
        if (!sub) {
          error(l) << "cannot import '" << attr << "' from '" << from
                   << "' (the module itself): it defines no such name and "
                      "has no submodule "
                   << joinDotted(from, attr);
          return failure();
        }
        return std::optional<PyValue>(PyValue::module(sub->name));
      }
      TRY(r, moduleAttr(from, attr, l));
      return std::optional<PyValue>(r);
    }
    return std::optional<PyValue>(v);
  }
  auto c = m.pendingConstants.find(name);
  if (c == m.pendingConstants.end()) {
    // A host function (a module constant's `get_device_type()`): run by
    // HostEval.cpp where it is called.
    if (const py::FunctionDef *fn = lookupHostFunction(m, name)) {
      PyValue h;
      h.kind = PyValue::Kind::HostFunction;
      h.fn = fn;
      h.s = m.name;
      return std::optional<PyValue>(h);
    }
    // `from M import *`: M's public names (not starting with `_`), the
    // latest such import first.
    if (name.empty() || name.front() == '_')
      return std::optional<PyValue>();
    for (auto it = m.starImports.rbegin(); it != m.starImports.rend(); ++it) {
      std::string key = m.name + ":*" + *it + ":" + name;
      if (llvm::is_contained(resolvingImports, key) ||
          resolvingImports.size() >= 256)
        continue; // a cycle of star imports adds nothing
      TRY(src, loadModule(*it, l));
      if (!src)
        continue;
      resolvingImports.push_back(key);
      auto r = lookupGlobal(*src, name, l);
      resolvingImports.pop_back();
      if (failed(r))
        return failure();
      if (*r)
        return *r;
    }
    return std::optional<PyValue>();
  }
  // A def or class below the assignment rebinds the name: Python's value
  // is the function (a host function tilec runs where it is called) or
  // the class.
  for (const auto &[defined, where] : m.ast->definedNames)
    if (defined == name &&
        std::make_pair(where.line, where.col) >
            std::make_pair(c->second->loc.line, c->second->loc.col)) {
      const py::FunctionDef *fn = lookupHostFunction(m, name);
      if (fn && fn->loc.line == where.line) {
        PyValue h;
        h.kind = PyValue::Kind::HostFunction;
        h.fn = fn;
        h.s = m.name;
        return std::optional<PyValue>(h);
      }
      auto d = error(l);
      d << "unimplemented: module name '" << name << "' is bound by the "
        << "def or class at line " << where.line;
      if (m.ast != &module)
        d << " of " << m.fileName.getValue();
      d << ", after its assignment at line " << c->second->loc.line
        << "; tilec does not read that definition";
      return failure();
    }
  for (const auto &[changed, where] : m.ast->mutatedNames)
    if (changed == name) {
      // Python's value is the changed one; tilec would read a stale one.
      auto d = error(l);
      d << "unimplemented: module variable '" << name
        << "' is changed by host code (line " << where.line;
      if (m.ast != &module)
        d << " of " << m.fileName.getValue();
      d << ") after its assignment at line " << c->second->loc.line
        << "; tilec reads only the assignment, so it cannot tell the value "
           "Python would use";
      return failure();
    }
  std::string key = m.name + "." + name;
  if (evaluatingConstants.size() >= 256) {
    error(l) << "module constants nested more than 256 deep (at '" << name
             << "')";
    return failure();
  }
  if (llvm::is_contained(evaluatingConstants, key)) {
    error(l) << "module constant '" << name << "' refers to itself";
    return failure();
  }
  // Evaluated in the module's scope, as Python would.
  evaluatingConstants.push_back(key);
  moduleRunPoints.push_back(
      {&m, c->second->loc, "module constant '" + name + "'"});
  std::map<std::string, PyValue> saved;
  std::swap(saved, scope);
  auto saveStack = callStack;
  callStack.clear();
  // Another module's constant: its errors note where it was used.
  if (&m != cur)
    callStack.push_back(loc(l));
  // A module constant is the same wherever it is first used: no dicts
  // (Triton refuses non-constexpr globals), even from a @core.extern.
  int saveExtern = externDepth;
  externDepth = 0;
  ModuleScope *saveModule = cur;
  cur = &m; // its names, its file's locations
  auto v = eval(*c->second->value);
  cur = saveModule;
  externDepth = saveExtern;
  callStack = saveStack;
  std::swap(saved, scope);
  moduleRunPoints.pop_back();
  evaluatingConstants.pop_back();
  if (failed(v))
    return failure();
  if (!v->isConstexpr()) {
    error(l) << "module constant '" << name
             << "' must be a compile-time value, found " << v->describe();
    return failure();
  }
  m.globals[name] = *v;
  return std::optional<PyValue>(*v);
}

FailureOr<PyValue> CodeGen::moduleMember(ModuleScope &m,
                                         const std::string &attr, SourceLoc l) {
  // Among m's names (a constant evaluated in m); errors at the use.
  TRY(r, lookupGlobal(m, attr, l));
  if (r)
    return *r;
  // A submodule not imported in m's __init__: Python finds it once it
  // was imported anywhere; tilec on the path.
  TRY(sub, loadModule(joinDotted(m.name, attr), l));
  if (sub)
    return PyValue::module(sub->name);
  error(l) << "module '" << m.name << "' (" << m.fileName.getValue()
           << ") has no jit function, constant, import or submodule '" << attr
           << "'" << (definedUnderGuard(m, attr) ? kUnderGuard : "")
           << skippedBindingNote(m, attr);
  return failure();
}
