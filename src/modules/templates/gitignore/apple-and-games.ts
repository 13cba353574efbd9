// Ignore templates for Apple platforms, Flutter and game engines. Written for Wharf.

/** What Xcode writes next to a project, shared by Swift and Objective-C. */
const XCODE = `# Xcode: per-user state and build output
xcuserdata/
*.xcuserstate
*.xcscmblueprint
*.xccheckout
DerivedData/
build/
*.moved-aside
*.hmap
*.ipa
*.dSYM.zip
*.dSYM

# Playgrounds
timeline.xctimeline
playground.xcworkspace
`;

export const Swift = `${XCODE}
# Swift Package Manager
.build/
.swiftpm/
/Packages/
Package.resolved

# CocoaPods and Carthage (commit Pods/ only if the team chose to)
Pods/
Carthage/Build/
Carthage/Checkouts/

# fastlane reports and screenshots
fastlane/report.xml
fastlane/Preview.html
fastlane/screenshots/**/*.png
fastlane/test_output/
`;

export const ObjectiveC = `${XCODE}
# CocoaPods and Carthage
Pods/
Carthage/Build/

# Code injection and app bundles
iOSInjectionProject/
*.app

# fastlane
fastlane/report.xml
fastlane/Preview.html
fastlane/screenshots/**/*.png
fastlane/test_output/
`;

export const Dart = `# Package resolution state written by dart pub and flutter pub
.dart_tool/
.packages
.pub-cache/
.pub/
pubspec_overrides.yaml

# Build output
build/

# Generated API documentation
doc/api/

# Flutter: platform build directories and generated plugin registrants
.flutter-plugins
.flutter-plugins-dependencies
**/ios/Flutter/.last_build_id
**/ios/Pods/
**/android/.gradle/
**/android/local.properties
**/GeneratedPluginRegistrant.*

# Symbols from obfuscated builds
*.symbols
app.*.map.json
`;

export const Unity = `# Everything Unity regenerates from Assets/ and Packages/
/[Ll]ibrary/
/[Tt]emp/
/[Oo]bj/
/[Bb]uild/
/[Bb]uilds/
/[Ll]ogs/
/[Uu]ser[Ss]ettings/
/[Mm]emoryCaptures/
/[Rr]ecordings/

# Keep .meta files: they carry asset ids

# IDE projects Unity writes on demand
.vs/
.vscode/
.idea/
*.csproj
*.unityproj
*.sln
*.suo
*.user
*.pidb
*.booproj
*.svd
*.pdb
*.mdb
*.opendb
*.VC.db

# Crash reports and players
sysinfo.txt
crashlytics-build.properties
*.apk
*.aab
*.unitypackage
*.app

# Addressables and burst debug output
/[Aa]ssets/[Aa]ddressable[Aa]ssets[Dd]ata/*/*.bin*
/[Aa]ssets/[Ss]treamingAssets/aa/*
*_BurstDebugInformation_DoNotShip/
`;
