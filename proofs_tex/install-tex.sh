#!/usr/bin/env bash
# Install the TeX the proofs need (latexmk, pdflatex and the packages dpcert.sty loads) from
# Debian's packages, only when something is missing.
set -euo pipefail
styles=(amsmath.sty amssymb.sty amsthm.sty geometry.sty xcolor.sty listings.sty booktabs.sty
        longtable.sty hyperref.sty)
missing=0
command -v latexmk >/dev/null 2>&1 || missing=1
command -v pdflatex >/dev/null 2>&1 || missing=1
if [ "$missing" -eq 0 ]; then
  for style in "${styles[@]}"; do
    kpsewhich "$style" >/dev/null 2>&1 || { missing=1; break; }
  done
fi
[ "$missing" -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing TeX from Debian's packages (latexmk, texlive-latex-recommended, texlive-fonts-recommended)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  latexmk texlive-latex-recommended texlive-fonts-recommended >/dev/null
