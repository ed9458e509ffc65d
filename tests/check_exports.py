#!/usr/bin/env python3
"""Every function the public headers declare is exported by libd3d12xs.so (issue 17).

Usage: check_exports.py LIBRARY INCLUDE_DIR GCC NM

The declarations come from the compiler, not from reading the headers' text: each header of
INCLUDE_DIR is compiled alone as C with gcc's -aux-info, which writes the prototype of every
function the translation unit declares, with its file and line. Those declared in INCLUDE_DIR
and not static (static inline helpers such as XMemAlloc are the header's own) must be in
`NM -D --defined-only LIBRARY` as functions. A program that calls one that is missing would
fail to link or, loaded lazily, jump to NULL.

The C++-only parts of the headers (d3dx12_xs.h, wrl/client.h) declare inline functions only;
-aux-info reads C, so they are not checked here.
"""

import os
import re
import subprocess
import sys
import tempfile

# "/* /path/include/d3d12.h:7899:NC */ extern HRESULT D3D12CreateDevice (IUnknown *, ...);"
AUX_RE = re.compile(r"^/\* (?P<file>.+?):(?P<line>\d+):\w+ \*/ (?P<decl>.*)$")
NAME_RE = re.compile(r"(\w+) \(")


def declared_functions(include_dir, gcc):
    found = {}
    headers = sorted(f for f in os.listdir(include_dir) if f.endswith(".h"))
    with tempfile.TemporaryDirectory() as tmp:
        for header in headers:
            source = os.path.join(tmp, "include_header.c")
            aux = os.path.join(tmp, header + ".aux")
            with open(source, "w") as f:
                f.write('#include "%s"\n' % header)
            result = subprocess.run([gcc, "-std=c11", "-fsyntax-only", "-I", include_dir, "-aux-info", aux, source],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
            if result.returncode != 0:
                print("error: %s does not compile as C:\n%s" % (header, result.stdout), file=sys.stderr)
                sys.exit(2)
            with open(aux) as f:
                for line in f:
                    m = AUX_RE.match(line.rstrip("\n"))
                    if not m:
                        continue
                    path = os.path.realpath(m.group("file"))
                    if os.path.dirname(path) != os.path.realpath(include_dir):
                        continue
                    decl = m.group("decl")
                    if decl.startswith("static "):
                        continue
                    name = NAME_RE.search(decl)
                    if name:
                        found.setdefault(name.group(1), "%s:%s" % (os.path.basename(path), m.group("line")))
    return found


def exported_functions(library, nm):
    result = subprocess.run([nm, "-D", "--defined-only", library], stdout=subprocess.PIPE, universal_newlines=True,
                            check=True)
    names = set()
    for line in result.stdout.splitlines():
        parts = line.split()
        # address, type, name: T (text), W (weak), i (indirect function) are functions.
        if len(parts) >= 3 and parts[1] in ("T", "W", "i"):
            names.add(parts[2].split("@")[0])
    return names


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    library, include_dir, gcc, nm = sys.argv[1:]
    declared = declared_functions(include_dir, gcc)
    # The compiler must have seen the headers' functions; an empty list would pass vacuously.
    for expected in ("D3D12CreateDevice", "D3DCompile", "D3D12XSSetLogCallback"):
        if expected not in declared:
            print("error: %s not among the declarations gcc -aux-info reported" % expected, file=sys.stderr)
            return 2
    exported = exported_functions(library, nm)
    missing = sorted(n for n in declared if n not in exported)
    for name in missing:
        print("not exported: %s (declared at %s)" % (name, declared[name]))
    print("%d functions declared by %s, %d missing from %s" % (len(declared), include_dir, len(missing),
                                                               os.path.basename(library)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
