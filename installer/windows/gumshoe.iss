; Gumshoe for Windows: a per-user installer (no administrator rights needed).
;
;   iscc /DAppVersion=0.1.0 /DDistDir=..\..\build\dist\gumshoe /DOutputDir=..\..\build\installer installer\windows\gumshoe.iss
;
; AppVersion comes from the package metadata (release.yml reads it with importlib.metadata);
; DistDir is PyInstaller's one-dir output of installer\gumshoe.spec.
;
; Installs into %LOCALAPPDATA%\Programs\Gumshoe, adds a Start-menu entry (and a "self-test"
; entry for when something does not work), optionally a desktop shortcut. Uninstalling removes
; the program; the saved games and deck corrections in %APPDATA%\Gumshoe are kept unless the
; user answers Yes to the question (a silent uninstall always keeps them).

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef AppVersionNumeric
  ; four numbers for the file's version resource ("0.1.0rc1" -> "0.1.0.0"): release.yml passes it
  #define AppVersionNumeric "0.0.0.0"
#endif
#ifndef DistDir
  #define DistDir "..\..\build\dist\gumshoe"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\build\installer"
#endif
#define AppName "Gumshoe"
#define AppExe "gumshoe.exe"
#define UserDataDir "{userappdata}\Gumshoe"

[Setup]
; AppId identifies the app for upgrades and uninstall: never change it.
AppId={{F33C2A45-6D5F-4850-B33D-FD76D59C89E2}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Gumshoe contributors
VersionInfoVersion={#AppVersionNumeric}
PrivilegesRequired=lowest
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#OutputDir}
OutputBaseFilename=Gumshoe-{#AppVersion}-windows-setup
SetupIconFile=..\icons\gumshoe.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/ultra64
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; GroupDescription: "Shortcuts:"; Flags: unchecked

[Files]
Source: "{#DistDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"
Name: "{autoprograms}\{#AppName} self-test"; Filename: "{app}\{#AppExe}"; Parameters: "--self-test"; WorkingDir: "{app}"; Comment: "Checks that everything Gumshoe needs works on this computer"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "Start Gumshoe now"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Python may leave caches next to the program; the program folder goes entirely.
Type: filesandordirs; Name: "{app}"

[Code]
{ Saved games and deck corrections live in %APPDATA%\Gumshoe (engine/paths.py: user_dir).
  They are kept unless the user explicitly asks, after the program itself is gone. }
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    DataDir := ExpandConstant('{#UserDataDir}');
    if DirExists(DataDir) and (not UninstallSilent) then
    begin
      if MsgBox('Gumshoe has been removed.' + #13#10 + #13#10 +
                'Do you also want to delete your saved games and deck corrections?' + #13#10 +
                '(' + DataDir + ')' + #13#10 + #13#10 +
                'Choose No to keep them for a later reinstall.',
                mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
      begin
        if not DelTree(DataDir, True, True, True) then
          MsgBox('Some files in ' + DataDir + ' could not be deleted.', mbError, MB_OK);
      end;
    end;
  end;
end;
