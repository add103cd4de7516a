#!/usr/bin/env bash
# TNoodle's scramble library (the WCA's: thewca/tnoodle-lib) in one JVM: COUNT scrambles of
# one event into a file, first-scramble latency of a fresh process and the rate after it.
# Runs an already-built peer; builds and fetches nothing of it.
#
# Get the peer from its public source, github.com/thewca/tnoodle-lib, outside this repository.
# Its own build is Gradle (Kotlin build scripts, plugins from the Gradle plugin portal, which
# this machine does not reach); plain javac builds the library: compile together the main
# sources of its modules svglite, min2phase, threephase, sq12phase and scrambles, with
# slf4j-api on the class path (Debian's libslf4j-java, 1.7.32, does) and the four
# annotation/interface files TNoodle imports from gwt-exporter
# (org.timepedia.exporter.client.Export, NoExport, Exportable, ExportClosure, compiled from
# gwt-exporter's public source, github.com/manolo/gwt-exporter, core/src/main/java). Then:
#
#   TNOODLE_CLASSES=/path/to/classes          the compiled library
#   SLF4J_JAR=/path/to/slf4j-api.jar          default: Debian's /usr/share/java/slf4j-api.jar
#
#   bash bench/peers/tnoodle-scrambles.sh EVENT COUNT OUT [SEED]
#
# EVENT: 222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock minx pyram skewb sq1
# (no fto in TNoodle). OUT gets one scramble a line (megaminx's 7 lines joined by spaces).
# SEED: a seeded SHA1PRNG, as TNoodle's generateSeededScrambles. Prints (TnoodleScrambles.java):
#   # scrambles peer=tnoodle event=E puzzle=P count=N process_to_first_ms=A first_ms=B
#     rest_per_s=C rest_mean_ms=D rest_median_ms=E mean_tokens=F
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${TNOODLE_CLASSES:?set TNOODLE_CLASSES to the compiled tnoodle-lib classes}"
slf4j=${SLF4J_JAR:-/usr/share/java/slf4j-api.jar}
[[ $# -ge 3 ]] || { echo "usage: tnoodle-scrambles.sh EVENT COUNT OUT [SEED]" >&2; exit 2; }
out=$(realpath -m "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -nowarn -implicit:none -sourcepath "$here" -d "$work" -cp "$TNOODLE_CLASSES" "$here/TnoodleScrambles.java"
# slf4j 1.7 without a binding says so once on stderr; TNoodle logs nothing else there.
java ${JAVA_OPTS:-} -cp "$TNOODLE_CLASSES:$slf4j:$work" TnoodleScrambles "$1" "$2" "$out" "${@:4}" \
    2> >(grep -v '^SLF4J:' >&2)
