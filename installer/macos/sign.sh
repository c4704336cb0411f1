#!/usr/bin/env bash
# Signs Gumshoe.app for distribution when a Developer ID is available, otherwise leaves
# PyInstaller's ad-hoc signature (the app then runs after "Open Anyway", see docs/install.md).
#
#   installer/macos/sign.sh build/dist/Gumshoe.app
#
# Environment: MACOS_SIGN_IDENTITY, e.g. "Developer ID Application: Jane Doe (TEAMID)", already in
# a keychain (release.yml imports it from the MACOS_CERTIFICATE secret). Signing is inside-out:
# every library and executable first, then the bundle with the hardened runtime and
# installer/macos/entitlements.plist (camera).
set -euo pipefail
app="${1:?usage: sign.sh path/to/Gumshoe.app}"
here="$(cd "$(dirname "$0")" && pwd)"
entitlements="$here/entitlements.plist"

if [ -z "${MACOS_SIGN_IDENTITY:-}" ]; then
    echo "sign.sh: MACOS_SIGN_IDENTITY not set: keeping the ad-hoc signature (unsigned build)"
    codesign --verify --deep --strict "$app" && echo "sign.sh: ad-hoc signature is valid"
    exit 0
fi

sign() { codesign --force --timestamp --options runtime --sign "$MACOS_SIGN_IDENTITY" "$@"; }

# 1. every Mach-O file inside the bundle except the main executable
while IFS= read -r -d '' f; do
    if file -b "$f" | grep -q "Mach-O"; then
        sign "$f"
    fi
done < <(find "$app/Contents" -type f ! -path "$app/Contents/MacOS/gumshoe" -print0)

# 2. the main executable and the bundle, with the entitlements
sign --entitlements "$entitlements" "$app/Contents/MacOS/gumshoe"
sign --entitlements "$entitlements" "$app"
codesign --verify --deep --strict --verbose=2 "$app"
codesign -d --entitlements - "$app" | grep -q "com.apple.security.device.camera"
echo "sign.sh: signed with $MACOS_SIGN_IDENTITY (hardened runtime, camera entitlement)"
