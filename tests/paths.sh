#!/bin/sh
# TAP: every path from the top of the tree that the sources, scripts and documents name
# (core/coll/closure.c, docs/scheme-api.md, ...) exists, so comments and READMEs do not
# send a reader to a file that moved or never was.  Paths with a pattern in them
# (<kind>, *, $VAR, FILE.scm) and paths under the build tree are not checked, nor the
# files under bench/build/ (what the benchmark scripts unpack and build: OSU, an earlier
# compi from bench/build-base.sh).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top_srcdir" || exit 1

tops='core|scheme|trampolines|creators|topologies|tools|tests|examples|bench|docs|scripts|include'
exts='c|h|scm|sh|md|inc|def|txt|py|svg|in|map|am|ac'
files=$(find core scheme trampolines creators topologies tools tests examples bench docs scripts \
    include -type f \( -name '*.[ch]' -o -name '*.scm' -o -name '*.sh' -o -name '*.md' \
    -o -name '*.inc' -o -name '*.def' -o -name '*.txt' -o -name '*.py' -o -name '*.in' \) \
    2>/dev/null | grep -v -e '^tests/tools/golden/' -e '^bench/build/' | sort)
files="$files README.md Makefile.am configure.ac"

echo "1..1"
missing=$(for f in $files; do
    grep -o -E "(^|[^A-Za-z0-9_./-])($tops)/[A-Za-z0-9_./-]+\.($exts)\b" "$f" 2>/dev/null |
        sed -E 's/^[^a-z]//' | grep -v -E '/[A-Z]+\.' | sort -u | while read -r p; do
        [ -e "$p" ] || echo "$f names $p"
    done
done)
if [ -n "$missing" ]; then
    echo "not ok 1 - every path named in the sources and documents exists"
    echo "$missing" | sed 's/^/#   /'
else
    echo "ok 1 - every path named in the sources and documents exists"
fi
