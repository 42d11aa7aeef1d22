#!/usr/bin/env bash
# Installs the Debian packages socsim builds with; a no-op when they are all present.
set -euo pipefail
pkgs=(build-essential cmake pkg-config
      libsystemc-dev libyaml-cpp-dev libeigen3-dev libcli11-dev libsqlite3-dev libfmt-dev
      libgtest-dev libgmock-dev libbenchmark-dev libnlopt-cxx-dev
      # sweeps (issue 10): Slurm backend and its test, plots, the HTML report check
      slurm-wlm munge gnuplot-nox chromium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "socsim: installing missing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
