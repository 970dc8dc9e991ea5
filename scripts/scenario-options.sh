# Sourced by the scripts that run a bundled scenario: reads their options
# --gcsim PATH and --out DIR into $gcsim and $out (defaults: build/app/gcsim,
# out/NAME) and checks that gcsim is there.
#
#   cd "$(dirname "$0")/.." && source scripts/scenario-options.sh ps-vs-ring "$@"
scenario_name=$1
shift
gcsim=build/app/gcsim out=out/$scenario_name
while (($#)); do
  case "$1" in
    --gcsim) gcsim=$2 ;;
    --out) out=$2 ;;
    *)
      echo "$scenario_name.sh: unknown argument '$1' (expected --gcsim PATH or --out DIR)" >&2
      exit 2
      ;;
  esac
  shift 2
done
[[ -x "$gcsim" ]] || {
  echo "$scenario_name.sh: no gcsim at $gcsim (scripts/build.sh builds it)" >&2
  exit 2
}
