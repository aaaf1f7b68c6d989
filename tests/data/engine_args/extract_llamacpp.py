#!/usr/bin/env python3
"""Extract the llama-server argument list from llama.cpp's common/arg.cpp.

Runs offline on a fetched git snapshot of llama.cpp; it is not run by the build or
CI. Usage:

    extract_llamacpp.py GIT_DIR REV [MIRROR_NAME] > llamacpp.json

It reads `common/arg.cpp` (and `common/arg.h` for the handler kinds) at REV with
`git show`, walks `common_params_parser_init`, and keeps every
`add_opt(common_arg(...))` that `add_opt` lets through for LLAMA_EXAMPLE_SERVER:
an option whose example set contains SERVER or COMMON (the default set) and whose
exclude set does not contain SERVER. Inside `if (ex == LLAMA_EXAMPLE_SERVER) {..}
else {..}` only the server branch is taken. Options under `if
(llama_supports_rpc())` are kept and marked `"condition"`.

The value kind comes from the handler lambda's signature, as
common_params_parse_ex dispatches on it:
  (params)                       -> "none"           flag
  (params, bool)  + negated names -> "optional-bool" (names / negative_names)
  (params, int)                  -> "int"            (std::stoi on the token)
  (params, const std::string &)  -> "string", or "choice" where the handler
                                    accepts only a fixed set (table CHOICES below,
                                    each entry read from the handler body)
  (params, str, str)             -> "string2"        (two value tokens)
"""
import json
import re
import subprocess
import sys

GIT_DIR, REV = sys.argv[1], sys.argv[2]
MIRROR = sys.argv[3] if len(sys.argv) > 3 else None


def show(path):
    return subprocess.run(["git", "-C", GIT_DIR, "show", f"{REV}:{path}"],
                          check=True, capture_output=True, text=True).stdout


SRC = show("common/arg.cpp")


def skip_string(s, i):
    """s[i] is a quote; return index after the closing quote (C++ string/char)."""
    q = s[i]
    i += 1
    while s[i] != q:
        i += 2 if s[i] == "\\" else 1
    return i + 1


def skip_raw_string(s, i):
    # R"delim( ... )delim"
    m = re.match(r'R"([^(]*)\(', s[i:])
    end = s.index(")" + m.group(1) + '"', i + m.end())
    return end + len(m.group(1)) + 2


def match_paren(s, i):
    """s[i] is one of ( { [ ; return index of the matching closer."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    stack = [pairs[s[i]]]
    i += 1
    while stack:
        c = s[i]
        if s.startswith("//", i):
            i = s.index("\n", i)
            continue
        if s.startswith("/*", i):
            i = s.index("*/", i) + 2
            continue
        if c == "R" and s.startswith('R"', i) and not (s[i - 1].isalnum() or s[i - 1] == "_"):
            i = skip_raw_string(s, i)
            continue
        if c in "\"'":
            i = skip_string(s, i)
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")}]":
            assert c == stack[-1], (c, stack, s[max(0, i - 200):i + 20])
            stack.pop()
        i += 1
    return i - 1


def split_top(s):
    """Split s on top-level commas."""
    parts, depth, cur, i = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if s.startswith("//", i):
            i = s.index("\n", i)
            continue
        if c in "\"'":
            i = skip_string(s, i)
            continue
        if c in "({[":
            i = match_paren(s, i) + 1
            continue
        if c == ",":
            parts.append(s[cur:i].strip())
            cur = i + 1
        i += 1
    parts.append(s[cur:].strip())
    return parts


def c_strings(s):
    return [m.group(1) for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', s)]


def line_of(pos):
    return SRC.count("\n", 0, pos) + 1


# --- body of common_params_parser_init -------------------------------------
start = SRC.index("common_params_context common_params_parser_init(")
body_open = SRC.index("{", SRC.index(")", start))
body_close = match_paren(SRC, body_open)

# regions to skip: the non-server branch of `if (ex == LLAMA_EXAMPLE_SERVER) {} else {}`
skip_regions = []
conditions = []  # (start, end, text) of other if-blocks that contain add_opt
for m in re.finditer(r"\n    if \(([^\n]*)\) \{", SRC[body_open:body_close]):
    cond = m.group(1)
    b = body_open + m.end() - 1
    e = match_paren(SRC, b)
    if "add_opt(" not in SRC[b:e]:
        continue
    rest = SRC[e + 1:e + 20]
    if cond == "ex == LLAMA_EXAMPLE_SERVER":
        em = re.match(r"\s*else\s*\{", rest)
        if em:
            eb = e + 1 + em.end() - 1
            skip_regions.append((eb, match_paren(SRC, eb)))
    else:
        conditions.append((b, e, cond))

NAMED_LISTS = {}
for m in re.finditer(r"static std::initializer_list<enum llama_example> (\w+) = \{([^}]*)\}", SRC):
    NAMED_LISTS[m.group(1)] = re.findall(r"LLAMA_EXAMPLE_\w+", m.group(2))

# --- kv cache types (ggml_type_name of each listed type) --------------------
kv_block = re.search(r"const std::vector<ggml_type> kv_cache_types = \{([^}]*)\}", SRC)
GGML_TYPES = re.findall(r"GGML_TYPE_(\w+)", kv_block.group(1))
# type_name strings are read from ggml/src/ggml.c's type_traits table
GGML_C = show("ggml/src/ggml.c")
def ggml_type_name(t):
    m = re.search(r"\[GGML_TYPE_%s\]\s*=\s*\{\s*\.type_name\s*=\s*\"([^\"]+)\"" % t, GGML_C)
    return m.group(1)
KV_CACHE_TYPES = [ggml_type_name(t) for t in GGML_TYPES]

TRUTHY = c_strings(re.search(r"common_arg_utils::is_truthy[^{]*\{\s*return ([^;]*);", SRC).group(1))
FALSEY = c_strings(re.search(r"common_arg_utils::is_falsey[^{]*\{\s*return ([^;]*);", SRC).group(1))
AUTOY = c_strings(re.search(r"common_arg_utils::is_autoy[^{]*\{\s*return ([^;]*);", SRC).group(1))

NOTES = (
    "Parser is common_params_parse_ex (common/arg.cpp): each argv token is looked up "
    "verbatim in the option table, after '_' is replaced by '-' in tokens starting with "
    "'--'. There is no '--flag=value' form (the whole token would be looked up and "
    "rejected as 'invalid argument'), no abbreviation, no bundling of short options, and "
    "no positional argument: any unknown token is an error. An option with a value takes "
    "the next token verbatim. 'int' values go through std::stoi, 'float' through "
    "std::stof. 'optional-bool' options are flags: the names set true, the "
    "negative_names set false; neither takes a value on the command line (an env var "
    "for them takes a bool_values word). 'choice' lists exactly the strings the handler "
    "accepts before its throw. 'special_values' are strings a handler accepts besides "
    "its number/string (e.g. -ngl auto|all). -hf/--hf-repo takes '<user>/<model>[:quant]': "
    "common_download_split_repo_tag (common/download.cpp) splits on ':' and takes the "
    "last part as the quant tag; the repo part must have exactly one '/'. Options with "
    "a 'condition' exist only when it holds at run time (e.g. --rpc only in builds with "
    "RPC support). Repeating an option only warns; the last value wins."
)

CHAT_CPP = show("common/chat.cpp")
_rf = CHAT_CPP.index("common_reasoning_format common_reasoning_format_from_name(")
_rf_body = CHAT_CPP[_rf:CHAT_CPP.index("throw std::runtime_error", _rf)]
REASONING_FORMATS = re.findall(r'format == "([^"]*)"', _rf_body)

# --- walk add_opt(common_arg(...)) ------------------------------------------
options = []
for m in re.finditer(r"add_opt\(common_arg\(", SRC):
    p = m.start()
    if not (body_open < p < body_close):
        continue
    if any(a < p < b for a, b in skip_regions):
        continue
    open_outer = p + len("add_opt")
    close_outer = match_paren(SRC, open_outer)
    open_ca = open_outer + len("(common_arg")
    close_ca = match_paren(SRC, open_ca)
    ctor = split_top(SRC[open_ca + 1:close_ca])
    chain = SRC[close_ca + 1:close_outer]

    names = c_strings(ctor[0])
    negs = []
    rest = ctor[1:]
    if rest[0].startswith("{"):
        negs = c_strings(rest[0])
        rest = rest[1:]
    handler = rest[-1]
    sig = re.match(r"\[[^\]]*\]\s*\(([^)]*)\)", handler).group(1)
    params = [x.strip() for x in sig.split(",")]
    hbody = handler[handler.index("{"):]
    value_hints = [c_strings(x)[0] for x in rest[:-2] if x.startswith('"')]

    examples = ["LLAMA_EXAMPLE_COMMON"]
    excludes = []
    em = re.search(r"\.set_examples\((\{[^}]*\}|\w+)\)", chain)
    if em:
        arg = em.group(1)
        examples = re.findall(r"LLAMA_EXAMPLE_\w+", arg) if arg.startswith("{") else NAMED_LISTS[arg]
    xm = re.search(r"\.set_excludes\(\{([^}]*)\}\)", chain)
    if xm:
        excludes = re.findall(r"LLAMA_EXAMPLE_\w+", xm.group(1))
    env = re.search(r'\.set_env\("([^"]+)"\)', chain)
    if ".set_preset_only()" in chain:
        continue  # not a CLI argument
    if not (("LLAMA_EXAMPLE_SERVER" in examples or "LLAMA_EXAMPLE_COMMON" in examples)
            and "LLAMA_EXAMPLE_SERVER" not in excludes):
        continue

    if len(params) == 1:
        kind = "none"
    elif len(params) == 2 and params[1].startswith("bool"):
        kind = "optional-bool"
    elif len(params) == 2 and params[1].startswith("int"):
        kind = "int"
    elif len(params) == 2:
        kind = "string"
    else:
        kind = "string2"
    opt = {"names": names, "value": kind}
    if negs:
        opt["negative_names"] = negs
    if value_hints:
        opt["metavar"] = value_hints if len(value_hints) > 1 else value_hints[0]
    if env:
        opt["env"] = env.group(1)
    cond = [c for a, b, c in conditions if a < p < b]
    if cond:
        opt["condition"] = cond[0]
    opt["_line"] = line_of(p)
    opt["_body"] = hbody
    options.append(opt)


# --- value sets, read from the handler bodies -------------------------------
def body_literals(body):
    return re.findall(r'value == "([^"]*)"', body)


def classify(opt):
    body = opt.pop("_body")
    if opt["value"] != "string":
        return
    opt["_body_for_numbers"] = body
    lits = body_literals(body)
    uses = {f for f in ("is_truthy", "is_falsey", "is_autoy") if f + "(value)" in body}
    if "common_reasoning_format_from_name(value)" in body:
        opt["value"] = "choice"
        opt["choices"] = REASONING_FORMATS
        opt["checked_by"] = "common_reasoning_format_from_name in common/chat.cpp (throws on other names)"
        return
    if "kv_cache_type_from_str(value)" in body:
        opt["value"] = "choice"
        opt["choices"] = list(KV_CACHE_TYPES)
        opt["checked_by"] = "kv_cache_type_from_str (throws on other names)"
        return
    if uses or lits:
        ch = []
        for f, vals in (("is_truthy", TRUTHY), ("is_falsey", FALSEY), ("is_autoy", AUTOY)):
            if f in uses:
                ch += vals
        ch += [x for x in lits if x not in ch]
        throws = "throw std::" in body or "throw std::invalid_argument" in body
        opt["_candidates"] = ch
        opt["_throws"] = throws
    opt["_body_for_numbers"] = body


for o in options:
    classify(o)

# A handler that compares `value` against literals in an if/else-if chain that
# ends in a throw accepts exactly those literals: "choice". A handler that
# compares against literals but otherwise parses a number keeps its number kind
# and lists the literals as "special_values" (e.g. -ngl auto|all). Literals
# compared without a throw and without a number parse are left as "string"
# with "special_values".
def finish(o):
    body = o.pop("_body_for_numbers", "")
    cands = o.pop("_candidates", None)
    throws = o.pop("_throws", None)
    num = None
    if o["value"] == "string":
        if re.search(r"std::sto[fd]\(value\)", body):
            num = "float"
        elif re.search(r"std::sto(i|l|ul|ll|ull)\(value\)", body):
            num = "int"
    if cands is not None:
        if throws and num is None:
            o["value"] = "choice"
            o["choices"] = cands
        else:
            if num:
                o["value"] = num
            o["special_values"] = cands
    elif num:
        o["value"] = num


release = subprocess.run(["git", "-C", GIT_DIR, "describe", "--tags", REV],
                         capture_output=True, text=True).stdout.strip()
sha = subprocess.run(["git", "-C", GIT_DIR, "rev-parse", REV + "^{commit}"],
                     check=True, capture_output=True, text=True).stdout.strip()
count = subprocess.run(["git", "-C", GIT_DIR, "rev-list", "--count", sha],
                       check=True, capture_output=True, text=True).stdout.strip()

out_opts = []
for o in options:
    finish(o)
    o["source_line"] = "common/arg.cpp:%d" % o.pop("_line")
    out_opts.append(o)

doc = {
    "engine": "llamacpp",
    "program": "llama-server",
    "source": "github.com/ggml-org/llama.cpp@%s common/arg.cpp (common_params_parser_init, "
              "options kept by add_opt for LLAMA_EXAMPLE_SERVER; tools/server/server.cpp "
              "calls common_params_parse(argc, argv, params, LLAMA_EXAMPLE_SERVER))" % sha,
    "release": "%s (git tag; LLAMA_BUILD_NUMBER = commit count %s)" % (release, count),
    "snapshot": ("git snapshot of %s; the commit above is an upstream ggml-org/llama.cpp "
                 "commit (tag %s) contained in it" % (MIRROR, release)) if MIRROR else None,
    "positional": [],
    "kv_cache_types": KV_CACHE_TYPES,
    "bool_values": {"truthy": TRUTHY, "falsey": FALSEY, "autoy": AUTOY},
    "notes": NOTES,
    "options": out_opts,
}
json.dump(doc, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
