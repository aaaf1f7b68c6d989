#!/usr/bin/env python3
"""Extract the text-generation-launcher argument list from TGI's launcher/src/main.rs.

Runs offline on a fetched git snapshot of text-generation-inference; it is not run
by the build or CI. Usage:

    extract_tgi.py GIT_DIR REV > tgi.json

It reads `struct Args` (clap derive, clap 4) and the ValueEnum enums it uses, with
clap's derive rules:
  * `long`  -> "--" + field name with "_" -> "-"
  * `short` -> "-" + first letter of the field name (unless `short = 'x'`)
  * `env`   -> environment variable = field name upper-cased
  * type:  bool -> flag ("none"); Option<bool> -> "choice" true|false;
           integer types -> "int"; f32/f64 -> "float"; String -> "string";
           an enum deriving ValueEnum -> "choice" with each variant's clap name
           (`#[clap(name = "...")]`, else the variant name in kebab-case);
           Vec<T> -> repeatable; `value_delimiter = ','` -> comma-separated list.
clap's own -h/--help and -V/--version are added (the struct has
`#[clap(author, version, ...)]`).
The generated docs/source/reference/launcher.md (the launcher's --help) in the same
tree is compared with the result; any difference is printed on stderr.
"""
import json
import re
import subprocess
import sys

GIT_DIR, REV = sys.argv[1], sys.argv[2]


def git(*args):
    return subprocess.run(["git", "-C", GIT_DIR, *args], check=True,
                          capture_output=True, text=True).stdout


SRC = git("show", f"{REV}:launcher/src/main.rs")
LINES = SRC.splitlines()


def kebab(name):
    # heck-style: split before an upper-case letter that follows a lower-case
    # letter or digit, and inside runs of capitals (FOOBar -> foo-bar).
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name)
    s = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "-", s)
    return s.lower()


def enum_values(name):
    m = re.search(r"enum %s \{(.*?)\n\}" % name, SRC, re.S)
    if not m:
        return None
    body = m.group(1)
    vals = []
    pending = None
    for line in body.splitlines():
        t = line.strip()
        if t.startswith("//") or not t:
            continue
        nm = re.match(r'#\[(?:clap|value)\(name = "([^"]+)"\)\]', t)
        if nm:
            pending = nm.group(1)
            continue
        if t.startswith("#["):
            continue
        v = re.match(r"(\w+),?$", t)
        if v:
            vals.append(pending or kebab(v.group(1)))
            pending = None
    return vals


start = SRC.index("struct Args {")
end = SRC.index("\n}\n", start)
args_lines = SRC[start:end].splitlines()
base_line = SRC.count("\n", 0, start) + 1

INT = {"usize", "u8", "u16", "u32", "u64", "i32", "i64", "isize"}
options = []
attr = None
for off, line in enumerate(args_lines):
    t = line.strip()
    m = re.match(r"#\[clap\((.*)\)\]$", t)
    if m:
        attr = m.group(1)
        continue
    f = re.match(r"(\w+): (.+),$", t)
    if f and attr is not None:
        name, ty = f.group(1), f.group(2)
        parts = re.findall(r"\w+(?:\s*=\s*(?:'[^']*'|\"[^\"]*\"|[^,]+))?", attr)
        flags = {p.split("=")[0].strip(): (p.split("=", 1)[1].strip() if "=" in p else True) for p in parts}
        names = []
        if "short" in flags:
            s = flags["short"]
            names.append("-" + (s.strip("'") if s is not True else name[0]))
        if "long" in flags:
            names.append("--" + name.replace("_", "-"))
        inner = ty
        optional = False
        om = re.match(r"Option<(.+)>$", inner)
        if om:
            inner, optional = om.group(1), True
        vec = False
        vm = re.match(r"Vec<(.+)>$", inner)
        if vm:
            inner, vec = vm.group(1), True
        opt = {"names": names}
        if inner == "bool" and not optional and not vec:
            opt["value"] = "none"
        elif inner == "bool":
            opt["value"] = "choice"
            opt["choices"] = ["true", "false"]
        elif inner in INT:
            opt["value"] = "int"
        elif inner in ("f32", "f64"):
            opt["value"] = "float"
        elif inner == "String":
            opt["value"] = "string"
        else:
            vals = enum_values(inner)
            assert vals, inner
            opt["value"] = "choice"
            opt["choices"] = vals
        if vec:
            if "value_delimiter" in flags:
                opt["list_delimiter"] = flags["value_delimiter"].strip("'")
            else:
                opt["repeatable"] = True
        if "env" in flags:
            opt["env"] = name.upper()
        if "default_value" in flags:
            opt["default"] = flags["default_value"].strip('"')
        opt["rust_type"] = ty
        opt["source_line"] = "launcher/src/main.rs:%d" % (base_line + off)
        options.append(opt)
        attr = None

options.append({"names": ["-h", "--help"], "value": "none", "source_line": "clap (derive Parser)"})
options.append({"names": ["-V", "--version"], "value": "none", "source_line": "clap (#[clap(version)])"})

# --- compare with the generated reference doc --------------------------------
try:
    doc = git("show", f"{REV}:docs/source/reference/launcher.md")
    doc_names = set()
    for m in re.finditer(r"^  (?:(-\w), )?\s*(--[\w-]+)", doc, re.M):
        doc_names.update(x for x in m.groups() if x)
    ours = {n for o in options for n in o["names"]}
    if ours != doc_names:
        print("differs from launcher.md: ours-only %s doc-only %s"
              % (sorted(ours - doc_names), sorted(doc_names - ours)), file=sys.stderr)
except subprocess.CalledProcessError:
    pass

sha = git("rev-parse", REV + "^{commit}").strip()
describe = git("describe", "--tags", sha).strip()
cargo = git("show", f"{REV}:Cargo.toml")
ws_version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
clap_lock = re.findall(r'name = "clap"\nversion = "([^"]+)"', git("show", f"{REV}:Cargo.lock"))

out = {
    "engine": "tgi",
    "program": "text-generation-launcher",
    "source": "github.com/huggingface/text-generation-inference@%s launcher/src/main.rs "
              "(struct Args, clap derive; enums Quantization, Dtype, KVCacheDtype, RopeScaling, "
              "UsageStatsLevel)" % sha,
    "release": "%s (git describe); Cargo.toml workspace version %s" % (describe, ws_version),
    "positional": [],
    "notes": (
        "clap %s (Cargo.lock): '--flag value' and '--flag=value' both work; no abbreviation "
        "of long options; 'none' options are flags (bool fields, ArgAction::SetTrue) that "
        "take no value. Every option with 'env' can also be set by that environment "
        "variable (command line wins). '--sharded' takes true|false. '--cuda-graphs' takes "
        "a comma-separated list of integers ('0' disables). '--cors-allow-origin' may be "
        "repeated. Both '--port' and '--prometheus-port' declare short '-p' (field names "
        "start with 'p'); the generated launcher.md shows '-p' for both, so '-p' is "
        "ambiguous and should not be used. Enum values are clap ValueEnum names "
        "(kebab-case of the variant unless #[clap(name)] is given); --kv-cache-dtype accepts "
        "only fp8_e4m3fn and fp8_e5m2 (no plain 'fp8')." % ",".join(clap_lock)
    ),
    "options": options,
}
json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
