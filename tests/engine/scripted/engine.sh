#!/usr/bin/env bash
# A scripted Gomocup engine for the arena's protocol test. It follows a
# transcript: `< pattern` is a command it must receive next (a bash glob),
# `> text` is what it answers, `~ seconds` a pause before its next answer
# (its start-up, say). Anything out of protocol or out of order,
# or a command that arrives less than 20 ms after one of its answers, is
# answered with an ERROR line that names it (which loses the engine the
# game, with that line as the reason); after that it only listens.
#   engine.sh TRANSCRIPT
exec 3<"$1"
answered=0
fail() {
  echo "ERROR out of protocol: $1"
  cat >/dev/null
  exit 0
}
now() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
while IFS= read -r entry <&3; do
  case "$entry" in
    '< '*)
      IFS= read -r line || fail "the arena closed the pipe; expected '${entry#< }'"
      line=${line%$'\r'}
      if ((answered > 0)); then
        gap=$(( $(now) - answered ))
        ((gap >= 20000)) || fail "'$line' came $((gap / 1000)) ms after my answer"
        answered=0
      fi
      # shellcheck disable=SC2053 # the pattern is a glob on purpose
      [[ $line == ${entry#< } ]] || fail "expected '${entry#< }', got '$line'"
      ;;
    '> '*)
      echo "${entry#> }"
      answered=$(now)
      ;;
    '~ '*)
      sleep "${entry#~ }"
      ;;
  esac
done
# The transcript is done: only END (or the pipe closing) may follow.
IFS= read -r line || exit 0
line=${line%$'\r'}
[[ $line == END ]] || fail "expected END, got '$line'"
