#!/usr/bin/env python3
"""Extract the `vllm serve` argument list from vLLM's source, without importing vLLM.

Runs offline on a fetched git snapshot of vLLM; it is not run by the build or CI.
Usage:

    extract_vllm.py GIT_DIR REV [MIRROR_NAME] > vllm.json

What it reads (all with `git show REV:path`):
  * vllm/entrypoints/openai/cli_args.py  make_arg_parser (the `vllm serve` parser:
    positional model_tag, --headless, --api-server-count, ...), then
    FrontendArgs.add_cli_args (one option per dataclass field of BaseFrontendArgs
    and FrontendArgs, named "--" + field name with "_" -> "-"), with the
    _customize_cli_kwargs edits;
  * vllm/engine/arg_utils.py  EngineArgs.add_cli_args and AsyncEngineArgs.add_cli_args:
    every parser/group .add_argument(...) call. `**X_kwargs["field"]` arguments are
    resolved the way _compute_kwargs does it, from the type annotation of that field
    in the config dataclass (vllm/config/*.py), following type aliases through the
    modules' imports:
        dataclass type      -> JSON string          ("string", "json": true)
        bool                -> BooleanOptionalAction ("optional-bool")
        Literal[...]        -> choices, sorted       ("choice"); with str in the
                               union the literals are only a metavar ("string")
        list/tuple/set[T]   -> nargs "+" of T
        int / float         -> "int" / "float"
        dict, str, others   -> "string"
        None in the union   -> optional_type: "None" (and "") also accepted; for
                               choices, "None" is appended to the list as the
                               source does.
    Explicit add_argument keywords (action=, type=, choices=, nargs=) and later
    edits of the kwargs dicts (x_kwargs["f"]["type"] = ..., del ...["nargs"],
    ["choices"] += ...) override that.
"""
import ast
import itertools
import json
import subprocess
import sys

GIT_DIR, REV = sys.argv[1], sys.argv[2]


def git(*args):
    return subprocess.run(["git", "-C", GIT_DIR, *args], check=True,
                          capture_output=True, text=True).stdout


_src_cache = {}


def module_source(mod):
    """Source of a vllm module by dotted name, or None if not in the tree."""
    if mod in _src_cache:
        return _src_cache[mod]
    base = mod.replace(".", "/")
    src = None
    for path in (base + ".py", base + "/__init__.py"):
        try:
            src = git("show", f"{REV}:{path}")
            break
        except subprocess.CalledProcessError:
            pass
    _src_cache[mod] = src
    return src


_tree_cache = {}


def module_tree(mod):
    if mod not in _tree_cache:
        src = module_source(mod)
        _tree_cache[mod] = ast.parse(src) if src is not None else None
    return _tree_cache[mod]


def resolve(mod, name, depth=0):
    """Find what `name` is bound to at module level in `mod`.
    Returns ("class", mod, ClassDef) | ("alias", mod, expr) | ("external", qualname)."""
    if depth > 20:
        raise RuntimeError("import loop for %s.%s" % (mod, name))
    tree = module_tree(mod) if mod.startswith("vllm") else None
    if tree is None:
        return ("external", "%s.%s" % (mod, name))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return ("class", mod, node)
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ("alias", mod, node.value)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == name and node.value is not None:
            return ("alias", mod, node.value)
        if hasattr(ast, "TypeAlias") and isinstance(node, ast.TypeAlias) and node.name.id == name:
            return ("alias", mod, node.value)
    for node in ast.walk(tree):  # imports, also inside `if TYPE_CHECKING:` blocks
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if (a.asname or a.name) == name:
                    src_mod = node.module
                    if node.level:
                        parts = mod.split(".")
                        is_pkg = module_source(mod) is not None and \
                            _is_package(mod)
                        keep = len(parts) - node.level + (1 if is_pkg else 0)
                        src_mod = ".".join(parts[:keep] + ([node.module] if node.module else []))
                    return resolve(src_mod, a.name, depth + 1)
    return ("external", "%s.%s" % (mod, name))


def _is_package(mod):
    try:
        git("cat-file", "-e", f"{REV}:{mod.replace('.', '/')}/__init__.py")
        return True
    except subprocess.CalledProcessError:
        return False


BUILTINS = {"bool", "int", "float", "str", "dict", "list", "tuple", "set", "bytes"}
TYPING_UNION = {"Union", "Optional"}
TYPING_ANNOTATED = {"Annotated", "SkipValidation"}


def is_dataclass_def(cls):
    for d in cls.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        n = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if n in ("dataclass", "config"):
            return True
    return False


def hints(mod, expr):
    """Flatten a type annotation into leaf hints (like get_type_hints in arg_utils)."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return hints(mod, ast.parse(expr.value, mode="eval").body)
    if isinstance(expr, ast.Constant) and expr.value is None:
        return [("none",)]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return hints(mod, expr.left) + hints(mod, expr.right)
    if isinstance(expr, ast.Subscript):
        base = expr.value
        bname = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
        args = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        if bname in TYPING_UNION:
            out = []
            for a in args:
                out += hints(mod, a)
            if bname == "Optional":
                out.append(("none",))
            return out
        if bname in TYPING_ANNOTATED:
            return hints(mod, args[0])
        if bname == "Literal":
            vals = []
            for a in args:
                if isinstance(a, ast.Constant):
                    vals.append(a.value)
                else:  # nested Literal alias: Literal flattens it
                    for h in hints(mod, a):
                        assert h[0] == "literal", h
                        vals += h[1]
            return [("literal", vals)]
        if bname in ("list", "tuple", "set", "List", "Tuple", "Set", "Sequence"):
            kind = {"List": "list", "Tuple": "tuple", "Set": "set", "Sequence": "other"}.get(bname, bname)
            if kind == "other":
                return [("other", bname)]
            return [(kind, mod, args)]
        if bname in ("dict", "Dict", "Mapping"):
            return [("dict",)] if bname != "Mapping" else [("other", "Mapping")]
        if bname in ("ClassVar", "InitVar"):
            return [("classvar",)]
        # Callable[...], Type[...], etc.
        return [("other", bname)]
    if isinstance(expr, ast.Name):
        if expr.id in BUILTINS:
            return [(expr.id,)]
        if expr.id == "Any":
            return [("other", "Any")]
        r = resolve(mod, expr.id)
        if r[0] == "class":
            if is_dataclass_def(r[2]):
                return [("dataclass", r[2].name)]
            return [("other", r[2].name)]
        if r[0] == "alias":
            return hints(r[1], r[2])
        return [("other", r[1])]
    if isinstance(expr, ast.Attribute):
        return [("other", ast.unparse(expr))]
    raise ValueError("unhandled annotation %s in %s" % (ast.dump(expr), mod))


def class_fields(mod, cls):
    """Dataclass fields in order (bases first), name -> (module, annotation)."""
    out = {}
    for b in cls.bases:
        if isinstance(b, ast.Name):
            r = resolve(mod, b.id)
            if r[0] == "class":
                out.update(class_fields(r[1], r[2]))
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            h = hints(mod, node.annotation)
            if h and h[0][0] == "classvar":
                continue
            out[node.target.id] = (mod, node.annotation)
    return out


def kwargs_for(mod, annotation, name):
    """Emulate _compute_kwargs for one field."""
    hs = hints(mod, annotation)
    kinds = {h[0] for h in hs}
    k = {}
    if "dataclass" in kinds:
        k = {"value": "string", "json": True}
    elif "bool" in kinds:
        k = {"value": "optional-bool"}
    elif "literal" in kinds:
        vals = next(h[1] for h in hs if h[0] == "literal")
        if "str" in kinds:
            k = {"value": "string", "metavar_values": sorted(vals)}
        else:
            k = {"value": "choice", "choices": sorted(vals)}
            if not isinstance(vals[0], str):
                k["choice_type"] = type(vals[0]).__name__
    elif kinds & {"tuple", "list", "set"}:
        coll = next(h for h in hs if h[0] in ("tuple", "list", "set"))
        _, cmod, args = coll
        elem_args = [a for a in args if not (isinstance(a, ast.Constant) and a.value is Ellipsis)]
        eh = hints(cmod, elem_args[0])
        ekinds = {h[0] for h in eh}
        if len(eh) > 1:  # list[int | str] -> str
            assert "str" in ekinds, (name, eh)
            k = {"value": "string"}
        elif "literal" in ekinds:
            k = {"value": "choice", "choices": sorted(eh[0][1])}
        elif "int" in ekinds:
            k = {"value": "int"}
        elif "float" in ekinds:
            k = {"value": "float"}
        else:
            k = {"value": "string"}
        ell = any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args)
        k["nargs"] = "+" if coll[0] != "tuple" or ell else len(args)
    elif "int" in kinds:
        k = {"value": "int"}
        if name == "max_model_len":
            k["accepts"] = "human_readable_int_or_auto: -1, 'auto', or N with k/m/g/t (x1000) or K/M/G/T (x1024) suffix"
        elif name in ("max_num_batched_tokens", "kv_cache_memory_bytes"):
            k["accepts"] = "human_readable_int: N with k/m/g/t (x1000) or K/M/G/T (x1024) suffix"
    elif "float" in kinds:
        k = {"value": "float"}
    elif "dict" in kinds and ("str" in kinds or "other" in kinds or "dataclass" in kinds):
        k = {"value": "string", "json": "optional"}
    elif "dict" in kinds:
        k = {"value": "string", "json": True}
    elif "str" in kinds or "other" in kinds:
        k = {"value": "string"}
    else:
        raise ValueError("unsupported type %s for %s" % (hs, name))
    if "none" in kinds and "bool" not in kinds:
        k["none_accepted"] = True
        if "choices" in k:
            k["choices"].append("None")
    return k


# ---------------------------------------------------------------------------
ARG_UTILS = "vllm.engine.arg_utils"
CLI_ARGS = "vllm.entrypoints.openai.cli_args"


def find_func(tree, cls_name, func_name):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name == func_name:
                    return f
    raise KeyError((cls_name, func_name))


def top_func(tree, name):
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


def const_str(n):
    return n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) else None


def explicit_kwargs(kw, mod):
    """Classify an explicit keyword of add_argument."""
    return kw.arg, kw.value


class Walker:
    """Walk one add_cli_args-like function in statement order."""

    def __init__(self, mod, func):
        self.mod = mod
        self.func = func
        self.kw = {}          # var name -> {field: kwargs dict}   (from get_kwargs)
        self.alias = {}       # var name -> (var, field)
        self.options = []

    def field_kwargs(self, var, field):
        return self.kw[var][field]

    def classes_of_get_kwargs(self, call):
        arg = call.args[0]
        r = resolve(self.mod, arg.id)
        assert r[0] == "class", r
        return r[1], r[2]

    def subscript_target(self, node):
        """x_kwargs["f"]["key"] -> (dict, key); alias["key"] -> (dict, key)."""
        if isinstance(node, ast.Subscript):
            key = const_str(node.slice)
            inner = node.value
            if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) \
                    and inner.value.id in self.kw:
                return self.kw[inner.value.id][const_str(inner.slice)], key
            if isinstance(inner, ast.Name) and inner.id in self.alias:
                v, f = self.alias[inner.id]
                return self.kw[v][f], key
        return None, None

    def apply_type(self, d, value_node):
        src = ast.unparse(value_node)
        if "json.loads" in src:
            d.pop("choices", None)
            d["value"] = "string"
            d["json"] = True
        elif src == "optional_type(str)" or src == "str":
            d["value"] = "string"
        elif src == "int":
            d["value"] = "int"
        elif src == "float":
            d["value"] = "float"
        elif src.startswith("lambda"):
            d["type_transform"] = src

    def run(self, body=None):
        for st in (self.func.body if body is None else body):
            self.stmt(st)
        return self.options

    def stmt(self, st):
        if isinstance(st, ast.Assign):
            t = st.targets[0]
            v = st.value
            if isinstance(t, ast.Name) and isinstance(v, ast.Call) and \
                    getattr(v.func, "id", None) == "get_kwargs" and isinstance(v.args[0], ast.Name):
                m, cls = self.classes_of_get_kwargs(v)
                self.kw[t.id] = {f: kwargs_for(fm, ann, f) for f, (fm, ann) in class_fields(m, cls).items()}
                return
            if isinstance(t, ast.Name) and isinstance(v, ast.Subscript) and \
                    isinstance(v.value, ast.Name) and v.value.id in self.kw:
                self.alias[t.id] = (v.value.id, const_str(v.slice))
                return
            d, key = self.subscript_target(t)
            if d is not None:
                if key == "type":
                    self.apply_type(d, v)
                elif key == "action":
                    a = ast.unparse(v)
                    d["action"] = a.strip("'\"")
                elif key == "metavar":
                    pass
                elif key == "choices":
                    pass
                elif key == "default":
                    pass
                else:
                    raise ValueError("unhandled edit %s" % ast.unparse(st))
                return
        if isinstance(st, ast.AugAssign):
            d, key = self.subscript_target(st.target)
            if d is not None and key == "choices":
                # += [",".join(p) for p in permutations(get_args(X), r=2)]
                comp = st.value
                call = comp.generators[0].iter
                lit = call.args[0].args[0]
                r = call.keywords[0].value.value
                vals = hints(self.mod, lit)[0][1]
                d["choices"] = d["choices"] + [",".join(p) for p in itertools.permutations(vals, r)]
                return
        if isinstance(st, ast.Delete):
            for t in st.targets:
                d, key = self.subscript_target(t)
                if d is not None:
                    d.pop(key, None)
            return
        if isinstance(st, ast.If):
            # `if "nargs" in x: del x["nargs"]` and
            # `if not ("serve" in sys.argv[1:] and "--help" in sys.argv[1:])` -> body taken
            # (the condition is only false while printing `vllm serve --help`)
            self.run(st.body)
            return
        for node in ast.walk(st):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "add_argument":
                self.add_argument(node)

    def add_argument(self, call):
        names = [const_str(a) for a in call.args if const_str(a) is not None]
        d = {}
        explicit = {}
        for kw in call.keywords:
            if kw.arg is None:
                v = kw.value
                if isinstance(v, ast.Dict):  # {**x_kwargs["f"], "default": None}
                    for k, vv in zip(v.keys, v.values):
                        if k is None:
                            d.update(self.resolve_kwargs_expr(vv))
                else:
                    d.update(self.resolve_kwargs_expr(v))
            else:
                explicit[kw.arg] = kw.value
        d = dict(d)
        if "action" in explicit:
            a = ast.unparse(explicit["action"])
            if a == "argparse.BooleanOptionalAction":
                d = {"value": "optional-bool"}
            elif a in ("'store_true'", '"store_true"'):
                d = {"value": "none"}
            else:
                d["action"] = a.strip("'\"")
        if "type" in explicit:
            self.apply_type(d, explicit["type"])
        if "choices" in explicit:
            d["value"] = "choice"
            d["choices"] = ast.literal_eval(explicit["choices"])
        if "nargs" in explicit:
            d["nargs"] = ast.literal_eval(explicit["nargs"])
        if "const" in explicit:
            d["const"] = ast.unparse(explicit["const"])
        if "value" not in d:
            d["value"] = "string"
        opt = {"names": [n for n in names if n.startswith("-")]}
        opt.update(d)
        if not opt["names"]:
            opt = {"positional": names[0], **d}
        opt["source_line"] = "%s:%d" % (self.mod.replace(".", "/") + ".py", call.lineno)
        self.options.append(opt)

    def resolve_kwargs_expr(self, v):
        if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id in self.kw:
            return self.kw[v.value.id][const_str(v.slice)]
        if isinstance(v, ast.Name) and v.id in self.alias:
            var, f = self.alias[v.id]
            return self.kw[var][f]
        raise ValueError("unresolved **kwargs %s" % ast.unparse(v))


def frontend_options():
    """FrontendArgs.add_cli_args: one option per field, after _customize_cli_kwargs."""
    tree = module_tree(CLI_ARGS)
    r = resolve(CLI_ARGS, "FrontendArgs")
    fields = class_fields(r[1], r[2])
    w = Walker(CLI_ARGS, None)
    w.kw["frontend_kwargs"] = {f: kwargs_for(m, a, f) for f, (m, a) in fields.items()}
    for cls in ("BaseFrontendArgs", "FrontendArgs"):
        f = find_func(tree, cls, "_customize_cli_kwargs")
        w.func = f
        w.run()
    line = find_func(tree, "BaseFrontendArgs", "add_cli_args").lineno
    out = []
    for key, d in w.kw["frontend_kwargs"].items():
        opt = {"names": ["--" + key.replace("_", "-")], **d}
        if d.get("action") == "append":
            opt["repeatable"] = True
        opt["source_line"] = "%s:%d (field %s)" % (CLI_ARGS.replace(".", "/") + ".py", line, key)
        out.append(opt)
    return out


def main():
    cli = module_tree(CLI_ARGS)
    au = module_tree(ARG_UTILS)

    mk = top_func(cli, "make_arg_parser")
    serve = []
    for st in mk.body:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                getattr(st.value.func, "attr", None) == "add_argument":
            w = Walker(CLI_ARGS, mk)
            w.add_argument(st.value)
            serve += w.options
    positional = [o for o in serve if "positional" in o]
    options = [o for o in serve if "positional" not in o]
    options += frontend_options()
    options += Walker(ARG_UTILS, find_func(au, "EngineArgs", "add_cli_args")).run()
    options += Walker(ARG_UTILS, find_func(au, "AsyncEngineArgs", "add_cli_args")).run()

    for o in options:  # tidy
        o.pop("action", None) if o.get("action") in ("LoRAParserAction",) else None

    names = [n for o in options for n in o["names"]]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup

    sha = git("rev-parse", REV + "^{commit}").strip()
    date = git("log", "-1", "--format=%cs", sha).strip()
    envs_src = module_source("vllm.envs").splitlines()
    env_list = []
    for var in ("VLLM_USE_V1", "VLLM_USE_FLASHINFER_SAMPLER"):
        lines = [i + 1 for i, l in enumerate(envs_src) if '"%s"' % var in l]
        if lines:
            env_list.append({"name": var, "read_at": "vllm/envs.py:%d" % lines[0],
                             "source": envs_src[lines[0] - 1].strip() + " " +
                             " ".join(s.strip() for s in envs_src[lines[0]:lines[0] + 4])})
        else:
            gone = subprocess.run(
                ["git", "-C", GIT_DIR, "log", "-1", "--format=%H %cs %s",
                 "-S", '"%s"' % var, sha, "--", "vllm/envs.py"],
                capture_output=True, text=True).stdout.strip()
            au_src = module_source(ARG_UTILS).splitlines()
            vline = next(i + 1 for i, l in enumerate(au_src) if "envs.validate_environ(" in l)
            env_list.append({"name": var, "read_at": None,
                             "removed_by": gone or None,
                             "validated_at": "vllm/engine/arg_utils.py:%d" % vline,
                             "source": "not in vllm/envs.py environment_variables at this commit; "
                                       "validate_environ() (vllm/envs.py) logs 'Unknown vLLM "
                                       "environment variable detected' for it, or raises with "
                                       "--fail-on-environ-validation"})

    doc = {
        "engine": "vllm",
        "program": "vllm serve",
        "source": "github.com/vllm-project/vllm@%s (%s) vllm/engine/arg_utils.py "
                  "(EngineArgs.add_cli_args, AsyncEngineArgs.add_cli_args, _compute_kwargs), "
                  "vllm/entrypoints/openai/cli_args.py (make_arg_parser, FrontendArgs), "
                  "vllm/config/*.py (field types)" % (sha, date),
        "release": release_string(),
        "snapshot": ("git snapshot of %s; the commit above is an upstream vllm-project/vllm "
                     "commit contained in it" % MIRROR) if MIRROR else None,
        "positional": [p["positional"] for p in positional],
        "positional_detail": positional,
        "environment": env_list,
        "notes": NOTES,
        "options": options,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


MIRROR = sys.argv[3] if len(sys.argv) > 3 else None


def release_string():
    r = subprocess.run(["git", "-C", GIT_DIR, "describe", "--tags", REV],
                       capture_output=True, text=True)
    if r.returncode == 0:
        return r.stdout.strip() + " (git describe)"
    return ("unknown: the tree has no version file (pyproject.toml [tool.setuptools_scm] "
            "derives it from git tags at build time) and the snapshot has no tags")
NOTES = (
    "Parser: FlexibleArgumentParser (vllm/utils/argparse_utils.py), an argparse.ArgumentParser, "
    "so '--flag value' and '--flag=value' both work and unambiguous prefixes of long options "
    "are accepted (argparse allow_abbrev default). Before argparse sees them, "
    "FlexibleArgumentParser.parse_args turns '_' into '-' in the part of a '--' argument "
    "before the first '.', expands '-O3'/'-O=3'/'-O 3' to '--optimization-level 3', takes "
    "'--json-arg.key value' dotted keys into the JSON option, reads '--config FILE' (YAML), "
    "and for 'vllm serve' moves '--model X' to the positional model_tag (with a deprecation "
    "warning). model_tag is optional (nargs='?'). 'optional-bool' is "
    "argparse.BooleanOptionalAction: '--x' and '--no-x'. Options with 'none_accepted' take "
    "'None' or '' as None (optional_type). Options with 'nargs': '+' take one or more "
    "values. 'json': true means the value is parsed as JSON (a dataclass config or dict); "
    "'json': 'optional' means a value that looks like a JSON object is parsed as JSON, "
    "anything else is kept as a string. 'metavar_values' are documented values of a "
    "string option (Literal plus str in the type), not enforced. 'choice' is enforced by "
    "argparse after 'type' conversion; --moe-backend lowercases and turns '-' into '_' "
    "first (type_transform). Plugins (load_general_plugins) and "
    "current_platform.pre_register_and_update(parser) may add choices or options at run "
    "time; this list is the source tree's own. --hf-token takes an optional value "
    "(nargs='?', const True)."
)

if __name__ == "__main__":
    main()
