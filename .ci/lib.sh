# Helpers of .ci/run, sourced by it (and by test/e2e/ci-run.test.ts, which checks them alone).

# $1: a tool's name. Succeeds when it is on PATH, or in /usr/bin or /usr/sbin (Debian puts some
# daemons, tinyproxy among them, in /usr/sbin, which a user's PATH may lack).
have_tool() {
  command -v "$1" >/dev/null 2>&1 || [ -x "/usr/bin/$1" ] || [ -x "/usr/sbin/$1" ]
}

# $1: package.json's text. Prints the floor of its "engines" "node" range (">=20.18.1" → 20.18.1);
# prints nothing when it is not of that form.
engines_floor() {
  printf '%s\n' "$1" | sed -n 's/^ *"node": *">= *\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)" *,\{0,1\} *$/\1/p' | head -n 1
}

# $1: a Node version (`node -v`: v20.18.1), $2: the engines floor (20.18.1). Succeeds when the
# version is on the floor's line (same major) and not below the floor: the line .ci/run runs first.
on_floor_line() {
  local version="${1#v}" floor="$2" major minor patch fmajor fminor fpatch n
  IFS=. read -r major minor patch <<<"$version"
  IFS=. read -r fmajor fminor fpatch <<<"$floor"
  for n in "$major" "$minor" "$patch" "$fmajor" "$fminor" "$fpatch"; do
    [[ "$n" =~ ^[0-9]+$ ]] || return 1
  done
  [ "$major" -eq "$fmajor" ] || return 1
  [ "$minor" -gt "$fminor" ] || { [ "$minor" -eq "$fminor" ] && [ "$patch" -ge "$fpatch" ]; }
}
