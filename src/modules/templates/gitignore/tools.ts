// Ignore templates for infrastructure tools and IDEs. Written for Wharf.

export const Terraform = `# Provider plugins and modules fetched by terraform init
.terraform/

# State can hold secrets; keep it in a remote backend instead
*.tfstate
*.tfstate.*

# Crash logs
crash.log
crash.*.log

# Variable files often hold credentials; commit a *.tfvars.example
*.tfvars
*.tfvars.json

# Local overrides that should never be shared
override.tf
override.tf.json
*_override.tf
*_override.tf.json

# Saved plans
*.tfplan

# CLI configuration
.terraformrc
terraform.rc

# Commit .terraform.lock.hcl so every run uses the same providers
`;

export const VisualStudio = `# Per-user files
*.suo
*.user
*.userosscache
*.sln.docstates
*.rsuser
.vs/

# Build output
[Dd]ebug/
[Dd]ebugPublic/
[Rr]elease/
[Rr]eleases/
x64/
x86/
[Aa][Rr][Mm]/
[Aa][Rr][Mm]64/
bld/
[Bb]in/
[Oo]bj/
[Ll]og/
[Ll]ogs/

# MSTest and other test results
[Tt]est[Rr]esult*/
[Bb]uild[Ll]og.*
*.trx
*.coverage
*.coveragexml

# NuGet: restored packages (package references restore on build)
*.nupkg
*.snupkg
**/[Pp]ackages/*
!**/[Pp]ackages/build/
project.lock.json
project.fragment.lock.json
artifacts/

# Compiler and IntelliSense databases
*.pdb
*.ilk
*.obj
*.pch
*.ipch
*.VC.db
*.VC.opendb
*.sdf
*.opensdf
*.cachefile

# Publish profiles can contain passwords
*.pubxml
*.publishproj
PublishScripts/

# ReSharper and Rider
_ReSharper*/
*.DotSettings.user
.idea/
`;
