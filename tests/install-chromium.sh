#!/usr/bin/env bash
# Install Debian's Chromium for the browser test of the HTML report, only when it is missing.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing chromium from Debian's packages for the HTML report test"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
