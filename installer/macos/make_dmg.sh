#!/usr/bin/env bash
# Packs Gumshoe.app into a compressed disk image with an Applications shortcut, then signs and
# notarizes the image when the secrets are there (an unsigned DMG is still produced without them).
#
#   installer/macos/make_dmg.sh build/dist/Gumshoe.app 0.1.0 build/dist
#   -> build/dist/Gumshoe-0.1.0-macos-arm64.dmg (or -x86_64)
#
# Environment (all optional):
#   MACOS_SIGN_IDENTITY                            sign the DMG (the app is signed by sign.sh)
#   APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD    notarize with notarytool and staple the ticket
set -euo pipefail
app="${1:?usage: make_dmg.sh path/to/Gumshoe.app VERSION OUTDIR}"
version="${2:?version}"
outdir="${3:?output folder}"
arch="$(uname -m)"
dmg="$outdir/Gumshoe-$version-macos-$arch.dmg"

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
cp -R "$app" "$staging/"
ln -s /Applications "$staging/Applications"
mkdir -p "$outdir"
rm -f "$dmg"
# ULFO (LZFSE): smaller than UDZO, opens on macOS 10.11 and later
hdiutil create -volname "Gumshoe $version" -srcfolder "$staging" -fs HFS+ -format ULFO -ov "$dmg" >/dev/null
hdiutil verify "$dmg" >/dev/null

if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
    codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$dmg"
    if [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
        xcrun notarytool submit "$dmg" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
            --password "$APPLE_APP_PASSWORD" --wait
        xcrun stapler staple "$dmg"
        echo "make_dmg.sh: notarized and stapled"
    else
        echo "make_dmg.sh: signed, not notarized (APPLE_ID / APPLE_TEAM_ID / APPLE_APP_PASSWORD not set)"
    fi
else
    echo "make_dmg.sh: unsigned DMG (MACOS_SIGN_IDENTITY not set)"
fi
echo "make_dmg.sh: $dmg ($(du -h "$dmg" | cut -f1))"
