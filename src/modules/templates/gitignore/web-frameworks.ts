// Ignore templates for web application frameworks and site generators. Written for Wharf.

export const Rails = `# Bundler settings and installed gems
/.bundle/
/vendor/bundle/

# Logs, temporary files and process ids
/log/*
/tmp/*
!/log/.keep
!/tmp/.keep
/tmp/pids/*
!/tmp/pids/.keep

# Uploaded files kept on local disk by Active Storage
/storage/*
!/storage/.keep
/tmp/storage/*

# Local databases
/db/*.sqlite3
/db/*.sqlite3-*

# Compiled assets and JavaScript dependencies
/public/assets/
/public/packs/
/public/packs-test/
/app/assets/builds/*
!/app/assets/builds/.keep
/node_modules/

# Secrets: the master key decrypts credentials.yml.enc
/config/master.key
/config/credentials/*.key
.env
.env.*

# Test output
/coverage/
/spec/examples.txt
`;

export const Laravel = `# Installed dependencies
/vendor/
/node_modules/

# Environment: keep .env.example only
.env
.env.backup
.env.production
.env.*.local

# Compiled front-end assets
/public/build/
/public/hot
/public/storage

# Application storage and caches
/storage/*.key
/storage/pail/
/bootstrap/cache/*.php

# Local tool state
.phpunit.result.cache
.phpunit.cache/
Homestead.json
Homestead.yaml
auth.json
npm-debug.log
yarn-error.log
`;

export const Symfony = `# Environment overrides for this machine
/.env.local
/.env.local.php
/.env.*.local

# Installed dependencies
/vendor/
/node_modules/

# Cache, logs and sessions under var/
/var/

# Compiled assets (Webpack Encore and AssetMapper)
/public/build/
/public/bundles/
/public/assets/

# Decryption keys of the secrets vault
/config/secrets/prod/prod.decrypt.private.php

# Test and quality tools
/phpunit.xml
.phpunit.result.cache
.phpunit.cache/
.php-cs-fixer.cache
`;

export const Jekyll = `# The generated site and Jekyll's caches
_site/
.sass-cache/
.jekyll-cache/
.jekyll-metadata

# Bundler
.bundle/
vendor/

# Local server artifacts
.jekyll-livereload
`;
