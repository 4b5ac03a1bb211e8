#!/usr/bin/env bash
# Installs the Debian packages the project needs (CJK fonts for the renderer and the
# scoresheet, DejaVu Sans for the Latin letters of names the CJK fonts lack, poppler-utils for PDF
# checks, ffmpeg for H.264 game videos: about 1 MB per minute instead of 5.5 with OpenCV's mp4v)
# when they are missing. Needs root or sudo.
set -euo pipefail
packages=(python3-venv  # the Makefile's virtual environment (Debian and Ubuntu ship venv apart)
          fonts-arphic-ukai fonts-arphic-uming fonts-wqy-zenhei fonts-noto-cjk poppler-utils ffmpeg
          fonts-dejavu-core  # the scoresheet's fallback for Latin letters the CJK fonts lack (Vietnamese names)
          chromium chromium-driver  # chromium: the console's browser tests (tests/server)
          # more faces for the renderer's piece characters (kai, ming, hei, yuan, fangsong; Big5 and GB cuts)
          fonts-arphic-bkai00mp fonts-arphic-gkai00mp fonts-arphic-bsmi00lp fonts-arphic-gbsn00lp
          fonts-wqy-microhei fonts-cwtex-kai fonts-cwtex-ming fonts-cwtex-heib fonts-cwtex-yen
          fonts-cwtex-fs fonts-lxgw-wenkai fonts-hanazono
          # brush-written, handwritten and gothic Japanese faces (the classifier's fourth stage)
          fonts-kouzan-mouhitsu fonts-kiloji fonts-ipaexfont-gothic)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
if ! command -v apt-get >/dev/null; then
  echo "apt-get not found: install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
