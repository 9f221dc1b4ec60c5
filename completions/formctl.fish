# fish completion for formctl
# Generated from the command tree by `formctl completion fish`; do not edit.
# Install: formctl completion fish > ~/.config/fish/completions/formctl.fish

# Sets the __fc_* lists for a command path (canonical names joined by spaces).
function __formctl_spec -a p
    for v in __fc_subs __fc_subdescs __fc_aliases __fc_opts __fc_optdescs __fc_vopts __fc_oopts __fc_args
        set -g $v
    end
    switch $p
        case ''
            set -g __fc_subs 'auth' 'profile' 'workspace' 'ws' 'form' 'submission' 'member' 'invite' 'webhook' 'api' 'config' 'completion' 'sandbox' 'help'
            set -g __fc_subdescs 'Log in, check and print tokens' 'List, switch and remove saved profiles' 'List, create, update and switch workspaces' 'List, create, update and switch workspaces' 'List, create, update and version forms safely' 'List, update, bulk-update, delete and export submissions' 'Manage workspace members and their roles' 'List, resend and cancel workspace invites' 'Manage webhook integrations; sign, verify, listen and send deliveries' 'Make an authenticated request to any API endpoint and print the response' 'Show where configuration lives and read or change settings' 'Print a shell completion script (bash, zsh, fish)' 'Run a local emulator of the form service (for trying formctl, demos and tests)' 'Show help for a command, or a topic: environment, exit-codes'
            set -g __fc_aliases 'ws:workspace'
            set -g __fc_opts '-v' '--version' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color' '-h' '--help'
            set -g __fc_optdescs 'Print the formctl version' 'Print the formctl version' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)' 'Show help for this command' 'Show help for this command'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'auth'
            set -g __fc_subs 'login' 'status' 'logout' 'token'
            set -g __fc_subdescs 'Save a personal access token in a profile, after checking it with the service' 'Show the active profile, where the token comes from, and whether it works' 'Remove the saved token from a profile (its base URL and workspace stay)' 'Print the active token to stdout, unmasked (the one command that shows it)'
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'auth login'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--base-url' '--with-token' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'API base URL (default: the profile\'s, FORMCTL_BASE_URL, or https://api.opnform.com)' 'Read the token from stdin instead of prompting (CI, scripts)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--base-url' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'auth status'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output JSON; optionally only these comma-separated fields (fields: profile, base_url, base_url_source, token_source, token, workspace, valid, error)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'auth logout'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'auth token'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'profile'
            set -g __fc_subs 'list' 'ls' 'use' 'remove' 'rm'
            set -g __fc_subdescs 'List saved profiles; * marks the one commands use now' 'List saved profiles; * marks the one commands use now' 'Make a saved profile the current one' 'Delete a saved profile and its token from this machine' 'Delete a saved profile and its token from this machine'
            set -g __fc_aliases 'ls:list' 'rm:remove'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'profile list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output JSON; optionally only these comma-separated fields (fields: name, base_url, workspace, current, logged_in)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'profile use'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:profiles'
        case 'profile remove'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:profiles'
        case 'workspace'
            set -g __fc_subs 'list' 'ls' 'create' 'update' 'delete' 'rm' 'leave' 'use'
            set -g __fc_subdescs 'List the workspaces you belong to' 'List the workspaces you belong to' 'Create a workspace; you become its admin' 'Rename a workspace or change its emoji (admins only)' 'Delete a workspace and everything in it (admins only)' 'Delete a workspace and everything in it (admins only)' 'Leave a workspace (you lose access to its forms); refused for its only member or only admin' 'Make a workspace the default for this profile (-w overrides it)'
            set -g __fc_aliases 'ls:list' 'rm:delete'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'workspace list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--all' '-L' '--limit' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show every workspace (the default for --json/--ndjson)' 'Show at most this many workspaces (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many workspaces (default 30 in a table or TSV, all with --json/--ndjson)' 'Output JSON; optionally only these comma-separated fields (fields: id, name, icon, settings, max_file_size, is_readonly)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-L' '--limit' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'workspace create'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--name' '--emoji' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Workspace name' 'Workspace icon' 'Output JSON; optionally only these comma-separated fields (fields: id, name, icon, settings, max_file_size, is_readonly)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--name' '--emoji' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'workspace update'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--name' '--emoji' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'New name' 'New icon; "" clears it' 'Output JSON; optionally only these comma-separated fields (fields: id, name, icon, settings, max_file_size, is_readonly)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--name' '--emoji' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:workspaces'
        case 'workspace delete'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:workspaces'
        case 'workspace leave'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--force' '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Leave even when you are its only member or only admin (nobody could manage it afterwards)' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:workspaces'
        case 'workspace use'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:workspaces'
        case 'form'
            set -g __fc_subs 'list' 'ls' 'get' 'view' 'fields' 'create' 'update' 'edit' 'delete' 'rm' 'pull' 'apply' 'backups' 'restore' 'list-all'
            set -g __fc_subdescs 'List a workspace\'s forms' 'List a workspace\'s forms' 'Show a form with its settings and fields' 'Show a form with its settings and fields' 'List a form\'s fields with the ids that exports and submission patches use' 'Create a form from flags, a JSON file, or prompts' 'Change a form safely: fields you do not mention keep their values' 'Edit a form as JSON in $VISUAL / $EDITOR, review the diff, then update it safely' 'Delete a form and its submissions' 'Delete a form and its submissions' 'Save a form as a stable JSON document for version control (see `form apply`)' 'Create or safely update a form from a JSON document; applying it again changes nothing' 'List the copies saved before each update of a form, newest first' 'Put a saved version of a form back (through the same safe update)' 'List forms across all your workspaces (deprecated endpoint, for old automations)'
            set -g __fc_aliases 'ls:list' 'view:get' 'rm:delete'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'form list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--all' '-L' '--limit' '--page' '--visibility' '--tag' '-w' '--workspace' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Fetch every page (the default for --json/--ndjson)' 'Show at most this many forms (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many forms (default 30 in a table or TSV, all with --json/--ndjson)' 'Fetch only this page (page size: --limit, default 30)' 'Only forms with this visibility' 'Only forms with this tag' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, title, visibility, tags, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, workspace_id, share_url)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-L' '--limit' '--page' '--visibility' '--tag' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'form get'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-w' '--workspace' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Workspace to pick the form from when <form> is left out (on a terminal)' 'Workspace to pick the form from when <form> is left out (on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, workspace_id, title, visibility, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, tags, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size, share_url)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form fields'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output JSON; optionally only these comma-separated fields (fields: id, type, name, required, hidden, help, placeholder, help_position, width, align, logic)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form create'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--title' '--visibility' '--language' '-f' '--file' '--field' '--set' '--no-validate' '-w' '--workspace' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Form title (at most 60 characters)' 'Visibility (default: draft, so nobody sees it before you publish)' 'Two-letter language code (default: en)' 'Read the form (title, properties, settings…) from a JSON file, or - for stdin' 'Read the form (title, properties, settings…) from a JSON file, or - for stdin' 'Add a field, e.g. "Email:email" or "Plan:select=Free,Pro" (repeatable; default type text)' 'Set any attribute; value is JSON when it parses, dotted keys for nested (repeatable)' 'Skip local checks and let the service decide' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, workspace_id, title, visibility, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, tags, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size, share_url)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--title' '--visibility' '--language' '-f' '--file' '--field' '--set' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'form update'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--title' '--visibility' '--set' '-f' '--file' '--dry-run' '--force' '--no-validate' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'New title (at most 60 characters)' 'New visibility' 'Set an attribute; JSON when it parses, dotted keys for nested, e.g. settings.navigation_arrows=true (repeatable)' 'Merge a JSON patch from a file, or - for stdin' 'Merge a JSON patch from a file, or - for stdin' 'Show the diff and send nothing' 'Overwrite even if someone changed the form since it was read' 'Skip local checks (title length, enums, required fields); an empty field list is still refused' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, workspace_id, title, visibility, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, tags, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size, share_url)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--title' '--visibility' '--set' '-f' '--file' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form edit'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--dry-run' '--force' '--no-validate' '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show the diff and send nothing' 'Overwrite even if someone changed the form since it was read' 'Skip local checks (title length, enums, required fields); an empty field list is still refused' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms'
        case 'form delete'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: id, deleted, backup)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form pull'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-o' '--output' '--force' '--include-secrets' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Write to this file instead of stdout (refused if it holds another form or is not a form document)' 'Write to this file instead of stdout (refused if it holds another form or is not a form document)' 'Overwrite the --output file whatever it holds' 'Keep secret attributes (password) in the document; left out by default' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-o' '--output' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms'
        case 'form apply'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-f' '--file' '-w' '--workspace' '--dry-run' '--force' '--no-validate' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Form document (from `form pull`, or hand-written), or - for stdin' 'Form document (from `form pull`, or hand-written), or - for stdin' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Show the diff and send nothing' 'Overwrite even if someone changed the form since it was read' 'Skip local checks (title length, enums, required fields); an empty field list is still refused' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, workspace_id, title, visibility, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, tags, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size, share_url)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-f' '--file' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'form backups'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output JSON; optionally only these comma-separated fields (fields: file, path, savedAt, size, title, updated_at)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form restore'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--backup' '--dry-run' '--force' '--no-validate' '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Backup file to restore (see `formctl form backups`)' 'Show the diff and send nothing' 'Overwrite even if someone changed the form since it was read' 'Skip local checks (title length, enums, required fields); an empty field list is still refused' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, workspace_id, title, visibility, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, tags, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size, share_url)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--backup' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'form list-all'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--all' '-L' '--limit' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show every form (the default for --json/--ndjson)' 'Show at most this many forms (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many forms (default 30 in a table or TSV, all with --json/--ndjson)' 'Output JSON; optionally only these comma-separated fields (fields: id, slug, title, visibility, tags, views_count, submissions_count, created_at, updated_at, last_edited_human, closes_at, is_closed, max_submissions_count, max_number_of_submissions_reached, is_pro, plan_tier, workspace_id, share_url, language, theme, presentation_style, width, size, border_radius, dark_mode, color, uppercase_labels, no_branding, transparent_background, description, closed_text, logo_picture, properties, settings, password, redirect_url, submissions_url, database_fields_update, clear_empty_fields_on_update, cleanings, can_be_indexed, removed_properties, seo_meta, submission_retention_value, submission_retention_unit, auto_save, cover_settings, translations, computed_variables, is_trialing, workspace, is_password_protected, has_password, form_pending_submission_key, max_file_size)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-L' '--limit' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'submission'
            set -g __fc_subs 'list' 'ls' 'update' 'delete' 'rm' 'export' 'export-status'
            set -g __fc_subdescs 'List a form\'s submissions, newest first' 'List a form\'s submissions, newest first' 'Change answers of one submission, or of many from an NDJSON file' 'Delete one submission for good' 'Delete one submission for good' 'Export submissions as CSV, waiting for large exports to finish' 'Show an async export job, or wait for it and download its CSV'
            set -g __fc_aliases 'ls:list' 'rm:delete'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'submission list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--status' '--search' '--all' '-L' '--limit' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Only submissions with this status' 'Only submissions with an answer matching this text' 'Show every submission (the default for --json/--ndjson)' 'Show at most this many submissions (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many submissions (default 30 in a table or TSV, all with --json/--ndjson)' 'Output JSON; optionally only these comma-separated fields (fields: id, submission_id, submitted_at, data)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--status' '--search' '-L' '--limit' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'submission update'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--set' '--file' '--from' '--concurrency' '--rate-limit' '--results' '--resume' '--dry-run' '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Set a field, by name or id (repeatable)' 'JSON object of field values (names or ids); "-" reads stdin' 'Bulk: NDJSON, one {"submission_id": …, "<field>": value} per line; "-" reads stdin' 'Bulk: requests in flight at once (default 4)' 'Bulk: requests per minute to stay under (default: the service\'s X-RateLimit-Limit, else 100)' 'Bulk: write per-line results (NDJSON) here instead of stdout; needed for --resume' 'Bulk: skip lines the --results file already records as ok, and append to it' 'Print the exact body that would be sent (current answers plus the patch under "data") and send nothing; with --from, check every line' 'Bulk: go ahead without asking when updates have side effects on the deployed service (integrations firing again, partial submissions completed, answers to removed fields dropped)' 'Bulk: go ahead without asking when updates have side effects on the deployed service (integrations firing again, partial submissions completed, answers to removed fields dropped)' 'Print {submission_id, form_id, updated, message} as JSON (single update; updated: the field ids sent)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--set' '--file' '--from' '--concurrency' '--rate-limit' '--results' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms' '-'
        case 'submission delete'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms' '-'
        case 'submission export'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--columns' '--all-columns' '--no-wait' '-o' '--output' '--clobber' '--poll-interval' '--wait-timeout' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Comma-separated property ids and/or created_at, in the order wanted (default: --all-columns)' 'Every input field plus created_at' 'For a large (async) export: print the job id and exit instead of waiting (a small export comes back as the CSV itself: it is saved, stdout stays empty)' 'Write the CSV here ("-" for stdout; default: the name the service gives, in the current directory)' 'Write the CSV here ("-" for stdout; default: the name the service gives, in the current directory)' 'Replace the output file if it exists' 'Seconds between job status checks' 'Longest wait for an async export job to finish (the root --timeout is per request)' 'Print {file, bytes, job_id} as JSON when done (or {job_id, …} with --no-wait)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--columns' '-o' '--output' '--poll-interval' '--wait-timeout' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms'
        case 'submission export-status'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--download' '-o' '--output' '--clobber' '--poll-interval' '--wait-timeout' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Wait until the job completes, then download the CSV' 'Write the CSV here ("-" for stdout; default: the name the service gives, in the current directory)' 'Write the CSV here ("-" for stdout; default: the name the service gives, in the current directory)' 'Replace the output file if it exists' 'Seconds between job status checks' 'Longest wait for an async export job to finish (the root --timeout is per request)' 'Print {file, bytes, job_id} as JSON when done (or {job_id, …} with --no-wait)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-o' '--output' '--poll-interval' '--wait-timeout' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms' '-'
        case 'member'
            set -g __fc_subs 'list' 'ls' 'add' 'remove' 'rm' 'set-role'
            set -g __fc_subdescs 'List the members of a workspace and their roles' 'List the members of a workspace and their roles' 'Add a person to a workspace by email, or invite them when they have no account' 'Remove a member from a workspace (their account and other workspaces stay)' 'Remove a member from a workspace (their account and other workspaces stay)' 'Change a member\'s role in a workspace (admins only)'
            set -g __fc_aliases 'ls:list' 'rm:remove'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'member list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--all' '-L' '--limit' '-w' '--workspace' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show every member (the default for --json/--ndjson)' 'Show at most this many members (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many members (default 30 in a table or TSV, all with --json/--ndjson)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: id, name, email, role)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-L' '--limit' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'member add'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--role' '-w' '--workspace' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Role in the workspace (prompted on a terminal when omitted)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: outcome, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--role' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args '-'
        case 'member remove'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--force' '-w' '--workspace' '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Remove even the only admin or the only member (nobody could manage the workspace afterwards)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: workspace_id, user_id, email, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args '-'
        case 'member set-role'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--force' '-w' '--workspace' '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Change the role even of the only admin (nobody could manage the workspace afterwards)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: workspace_id, user_id, email, role, changed, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args '-' 'choices:admin,user,readonly'
        case 'invite'
            set -g __fc_subs 'list' 'ls' 'resend' 'cancel'
            set -g __fc_subdescs 'List the invites of a workspace (admins only)' 'List the invites of a workspace (admins only)' 'Send a pending invite\'s email again (admins only)' 'Cancel a pending invite so its link stops working (admins only)'
            set -g __fc_aliases 'ls:list'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'invite list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--status' '--all' '-L' '--limit' '-w' '--workspace' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Only invites with this status' 'Show every invite (the default for --json/--ndjson)' 'Show at most this many invites (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many invites (default 30 in a table or TSV, all with --json/--ndjson)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: id, email, role, status, valid_until)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--status' '-L' '--limit' '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'invite resend'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-w' '--workspace' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Output JSON; optionally only these comma-separated fields (fields: workspace_id, invite_id, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args '-'
        case 'invite cancel'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-w' '--workspace' '-y' '--yes' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Workspace id (default: the profile\'s, see `formctl workspace use`)' 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Output JSON; optionally only these comma-separated fields (fields: workspace_id, invite_id, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-w' '--workspace' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args '-'
        case 'webhook'
            set -g __fc_subs 'list' 'ls' 'get' 'view' 'create' 'update' 'rotate-secret' 'delete' 'rm' 'events' 'verify' 'sign' 'listen' 'send' 'trigger'
            set -g __fc_subdescs 'List a form\'s webhook integrations' 'List a form\'s webhook integrations' 'Show one webhook integration: URL, status, masked secret, headers, logic' 'Show one webhook integration: URL, status, masked secret, headers, logic' 'Send every new submission of a form to an HTTPS endpoint' 'Change a webhook\'s URL, headers, status or logic, keeping everything else' 'Replace the signing secret with a new random one and print it once' 'Delete a webhook integration (deliveries stop at once)' 'Delete a webhook integration (deliveries stop at once)' 'Show delivery attempts, newest first; --follow prints new ones as they happen' 'Check a delivery\'s signature against its raw body: exit 0 valid, 1 invalid' 'Print the X-Webhook-Signature value for a body, for testing receivers' 'Run a local receiver that prints every delivery and checks its signature' 'POST a correctly signed sample delivery to a receiver under development' 'Answer a form as a visitor would (its public answer route), so its active webhooks deliver for real'
            set -g __fc_aliases 'ls:list' 'view:get' 'rm:delete'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'webhook list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--all' '-L' '--limit' '--show-secret' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show every webhook (the default for --json/--ndjson)' 'Show at most this many webhooks (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many webhooks (default 30 in a table or TSV, all with --json/--ndjson)' 'Print the signing secret in full (masked as ••••1234 by default)' 'Output JSON; optionally only these comma-separated fields (fields: id, form_id, integration_id, status, data, logic, created_at, updated_at)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-L' '--limit' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'webhook get'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--show-secret' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Print the signing secret in full (masked as ••••1234 by default)' 'Output JSON; optionally only these comma-separated fields (fields: id, form_id, integration_id, status, data, logic, created_at, updated_at)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms' 'dyn:integrations'
        case 'webhook create'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--url' '--secret-file' '--secret-stdin' '--generate-secret' '--header' '--inactive' '--logic-file' '--allow-private' '--show-secret' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Receiver URL: https:// and resolving only to public addresses (prompted on a terminal when omitted)' 'Sign deliveries with the secret in this file (at least 12 characters)' 'Read the signing secret from stdin' 'Generate a 32-byte random secret and print it once to stdout (piped, the new id goes to stderr)' 'Custom header sent with each delivery (repeatable, at most 10)' 'Create it switched off (no deliveries until `webhook update --activate`)' 'JSON condition that limits when the webhook fires' 'Skip only the HTTPS and public-address checks (a local receiver and a sandbox run with --allow-private-webhooks)' 'Print the signing secret in full (masked as ••••1234 by default)' 'Output JSON; optionally only these comma-separated fields (fields: id, form_id, integration_id, status, data, logic, created_at, updated_at, generated_secret)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--url' '--secret-file' '--header' '--logic-file' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'webhook update'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--url' '--header' '--clear-headers' '--activate' '--deactivate' '--logic-file' '--secret-file' '--no-secret' '--allow-private' '--show-secret' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'New receiver URL' 'Add or replace a custom header (repeatable); others are kept' 'Remove every custom header (then add those given with --header)' 'Switch deliveries on' 'Switch deliveries off' 'Replace the condition with this JSON (a file holding null removes it)' 'Sign deliveries from now on with the secret in this file (at least 12 characters)' 'Stop signing deliveries (receivers can no longer tell them from forgeries)' 'Skip only the HTTPS and public-address checks (a local receiver and a sandbox run with --allow-private-webhooks)' 'Print the signing secret in full (masked as ••••1234 by default)' 'Output JSON; optionally only these comma-separated fields (fields: id, form_id, integration_id, status, data, logic, created_at, updated_at)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--url' '--header' '--logic-file' '--secret-file' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms' 'dyn:integrations'
        case 'webhook rotate-secret'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output {"id", "form_id", "secret"} as JSON' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms' 'dyn:integrations'
        case 'webhook delete'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-y' '--yes' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Skip the confirmation prompt (required when not on a terminal)' 'Skip the confirmation prompt (required when not on a terminal)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'dyn:forms' 'dyn:integrations'
        case 'webhook events'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--status' '-f' '--follow' '--interval' '--all' '-L' '--limit' '--json' '--ndjson' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Only records with this status' 'Keep polling and print new records as they arrive (oldest first); Ctrl-C stops with exit 0' 'Keep polling and print new records as they arrive (oldest first); Ctrl-C stops with exit 0' 'Seconds between polls with --follow (default 5, at least 1)' 'Show every record (the default for --json/--ndjson)' 'Show at most this many records (default 30 in a table or TSV, all with --json/--ndjson)' 'Show at most this many records (default 30 in a table or TSV, all with --json/--ndjson)' 'Output JSON; optionally only these comma-separated fields (fields: id, integration_id, event, status, response_code, error_message, created_at)' 'Output one JSON object per line, streamed' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--status' '--interval' '-L' '--limit' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms' 'dyn:integrations'
        case 'webhook verify'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--secret-file' '--signature' '--header-file' '--body-file' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'File holding the signing secret (required)' 'The X-Webhook-Signature value, e.g. sha256=…' 'Raw "Name: value" header lines holding X-Webhook-Signature (as `webhook listen --save-dir` writes)' 'The exact body bytes as received (default: stdin)' 'Output JSON; optionally only these comma-separated fields (fields: valid, reason, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--secret-file' '--signature' '--header-file' '--body-file' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'webhook sign'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--secret-file' '--body-file' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'File holding the signing secret (required)' 'The exact body bytes to sign (default: stdin)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--secret-file' '--body-file' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'webhook listen'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--port' '--host' '--secret-file' '--forward-to' '--save-dir' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Port to listen on; 0 picks a free one (default 8787)' 'Address to bind (default 127.0.0.1)' 'Verify X-Webhook-Signature with this secret (answers 401 when it is wrong)' 'Forward each delivery unchanged to this URL and pass its answer back' 'Write each raw body and its headers here (for `webhook verify --body-file`)' 'One JSON object per delivery on stdout (NDJSON)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--port' '--host' '--secret-file' '--forward-to' '--save-dir' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'webhook send'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--secret-file' '--form' '--sample' '--body-file' '--header' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Sign with the secret in this file (without it the delivery is unsigned)' 'Shape the sample like this form\'s deliveries (id or slug; needs a login)' 'Send a sample payload (the default when no --body-file is given)' 'Send these exact bytes instead of a sample' 'Extra header, as a webhook\'s custom headers are sent (repeatable)' 'Output {"url", "status", "signed", "body_bytes", "response"} as JSON' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--secret-file' '--form' '--body-file' '--header' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args '-'
        case 'webhook trigger'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-d' '--data' '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'An answer, by field id or name (repeatable); required fields left out get sample values' 'An answer, by field id or name (repeatable); required fields left out get sample values' 'Output JSON; optionally only these comma-separated fields (fields: form_id, form_slug, submission_id, answers, message)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-d' '--data' '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args 'dyn:forms'
        case 'api'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-X' '--method' '-f' '--raw-field' '-F' '--field' '--input' '--paginate' '-H' '--header' '-i' '--include' '--silent' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'HTTP method (default GET, or POST when fields or --input are given)' 'HTTP method (default GET, or POST when fields or --input are given)' 'String field; body for POST/PUT/PATCH, query for GET (repeatable)' 'String field; body for POST/PUT/PATCH, query for GET (repeatable)' 'Typed field: true/false/null and numbers are JSON, @file reads a file, @- stdin (repeatable)' 'Typed field: true/false/null and numbers are JSON, @file reads a file, @- stdin (repeatable)' 'Send this file as the raw request body ("-" for stdin); fields then go in the query' 'Follow every page (GET) and print one merged JSON array; a page=N in the path is where it starts' 'Extra request header \'Name: value\' (repeatable)' 'Extra request header \'Name: value\' (repeatable)' 'Print the HTTP status line and response headers before the body' 'Print the HTTP status line and response headers before the body' 'Print nothing on success (the exit code still tells)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '-X' '--method' '-f' '--raw-field' '-F' '--field' '--input' '-H' '--header' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'file'
        case 'config'
            set -g __fc_subs 'path' 'list' 'ls' 'get' 'set'
            set -g __fc_subdescs 'Print the path of the config file (set FORMCTL_CONFIG_DIR to move it)' 'Show the saved settings of the current profile (token masked)' 'Show the saved settings of the current profile (token masked)' 'Print one saved setting of the current profile' 'Change one setting of the current profile'
            set -g __fc_aliases 'ls:list'
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'config path'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'config list'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--json' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Output JSON; optionally only these comma-separated fields (fields: profile, base_url, workspace, token)' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--json' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts '--json'
            set -g __fc_args
        case 'config get'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args '-'
        case 'config set'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args '-' '-'
        case 'completion'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'choices:bash,zsh,fish'
        case 'sandbox'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '--flavor' '--user' '--host' '--port' '--data' '--rate-limit' '--export-async-threshold' '--allow-private-webhooks' '--community' '--seed' '--profile-name' '--json' '--ready-file' '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Behave as the spec says (spec) or as the deployed OpnForm server does (deployed)' 'Also create this account with an all-abilities token (repeatable); it joins the workspaces that invited it' 'Interface to listen on' 'Port to listen on; 0 picks a free one' 'Keep state in this JSON file (resumed on the next start); default: in memory' 'Requests per minute per client IP (deployed flavour: per user, plus 10 exports a minute); 0 turns it off' 'Exports larger than this become async jobs' 'Allow webhooks to private and loopback addresses (local testing)' 'Behave like a self-hosted Community instance (2 users at most)' 'Create a demo form with this many submissions' 'Save a formctl profile pointing at this sandbox (token with every ability, seeded workspace)' 'Print one JSON line {url, flavor, tokens, users, workspace_id, form_id, form_slug} instead of text' 'Once listening, write that JSON (plus pid) to this file, for scripts that start the sandbox in the background; removed on exit' 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--flavor' '--user' '--host' '--port' '--data' '--rate-limit' '--export-async-threshold' '--seed' '--profile-name' '--ready-file' '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args
        case 'help'
            set -g __fc_subs
            set -g __fc_subdescs
            set -g __fc_aliases
            set -g __fc_opts '-h' '--help' '--profile' '--debug' '--timeout' '--max-wait' '--no-input' '--no-color'
            set -g __fc_optdescs 'Show help for this command' 'Show help for this command' 'Use this saved profile (env: FORMCTL_PROFILE)' 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)' 'Longest one API exchange may take, in seconds (downloads: longest silence)' 'Longest total wait for retries and rate limits' 'Never prompt; fail with the flag to pass instead (also when CI is set)' 'Disable colour (also NO_COLOR, TERM=dumb)'
            set -g __fc_vopts '--profile' '--timeout' '--max-wait'
            set -g __fc_oopts
            set -g __fc_args 'choices:environment,exit-codes,auth,profile,workspace,form,submission,member,invite,webhook,api,config,completion,sandbox...'
    end
end

# Prints what follows option $2 of command path $1: -, file, dyn:<source> or choices:<a,b>.
function __formctl_optval -a p flag
    switch "$p|$flag"
        case 'form list|--visibility'
            echo 'choices:public,draft,closed'
        case 'form list|-w' 'form list|--workspace'
            echo 'dyn:workspaces'
        case 'form get|-w' 'form get|--workspace'
            echo 'dyn:workspaces'
        case 'form create|--visibility'
            echo 'choices:public,draft,closed'
        case 'form create|-f' 'form create|--file'
            echo 'file'
        case 'form create|-w' 'form create|--workspace'
            echo 'dyn:workspaces'
        case 'form update|--visibility'
            echo 'choices:public,draft,closed'
        case 'form update|-f' 'form update|--file'
            echo 'file'
        case 'form pull|-o' 'form pull|--output'
            echo 'file'
        case 'form apply|-f' 'form apply|--file'
            echo 'file'
        case 'form apply|-w' 'form apply|--workspace'
            echo 'dyn:workspaces'
        case 'form restore|--backup'
            echo 'file'
        case 'submission list|--status'
            echo 'choices:completed,partial,all'
        case 'submission update|--file'
            echo 'file'
        case 'submission update|--from'
            echo 'file'
        case 'submission update|--results'
            echo 'file'
        case 'submission export|-o' 'submission export|--output'
            echo 'file'
        case 'submission export-status|-o' 'submission export-status|--output'
            echo 'file'
        case 'member list|-w' 'member list|--workspace'
            echo 'dyn:workspaces'
        case 'member add|--role'
            echo 'choices:admin,user,readonly'
        case 'member add|-w' 'member add|--workspace'
            echo 'dyn:workspaces'
        case 'member remove|-w' 'member remove|--workspace'
            echo 'dyn:workspaces'
        case 'member set-role|-w' 'member set-role|--workspace'
            echo 'dyn:workspaces'
        case 'invite list|--status'
            echo 'choices:pending,accepted'
        case 'invite list|-w' 'invite list|--workspace'
            echo 'dyn:workspaces'
        case 'invite resend|-w' 'invite resend|--workspace'
            echo 'dyn:workspaces'
        case 'invite cancel|-w' 'invite cancel|--workspace'
            echo 'dyn:workspaces'
        case 'webhook create|--secret-file'
            echo 'file'
        case 'webhook create|--logic-file'
            echo 'file'
        case 'webhook update|--logic-file'
            echo 'file'
        case 'webhook update|--secret-file'
            echo 'file'
        case 'webhook events|--status'
            echo 'choices:success,failed,timeout'
        case 'webhook verify|--secret-file'
            echo 'file'
        case 'webhook verify|--header-file'
            echo 'file'
        case 'webhook verify|--body-file'
            echo 'file'
        case 'webhook sign|--secret-file'
            echo 'file'
        case 'webhook sign|--body-file'
            echo 'file'
        case 'webhook listen|--secret-file'
            echo 'file'
        case 'webhook listen|--save-dir'
            echo 'file'
        case 'webhook send|--secret-file'
            echo 'file'
        case 'webhook send|--form'
            echo 'dyn:forms'
        case 'webhook send|--body-file'
            echo 'file'
        case 'webhook trigger|-d' 'webhook trigger|--data'
            echo 'file'
        case 'api|-X' 'api|--method'
            echo 'choices:GET,POST,PUT,PATCH,DELETE,HEAD'
        case 'api|--input'
            echo 'file'
        case 'sandbox|--flavor'
            echo 'choices:spec,deployed'
        case 'sandbox|--data'
            echo 'file'
        case 'sandbox|--ready-file'
            echo 'file'
        case '*|--profile'
            echo 'dyn:profiles'
        case '*'
            echo -
    end
end

# Prints candidates for value spec $1; $2 is put in front of each (for --flag=value).
function __formctl_values -a spec prefix
    switch $spec
        case 'choices:*'
            for c in (string split , -- (string replace -r '^choices:' '' -- $spec))
                echo "$prefix$c"
            end
        case file
            __fish_complete_path (string replace -- "$prefix" '' (commandline -ct))
        case 'dyn:*'
            # One call, served from formctl's short-lived cache; it never prompts and is silent on error.
            set -l ctx
            test -n "$__fc_ws"; and set ctx $ctx --workspace $__fc_ws
            test -n "$__fc_form"; and set ctx $ctx --form $__fc_form
            test -n "$__fc_prof"; and set ctx $ctx --profile $__fc_prof
            for line in (formctl __complete (string replace -r '^dyn:' '' -- $spec) $ctx 2>/dev/null)
                echo "$prefix$line"
            end
    end
end

function __formctl_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l p ''
    set -l pos
    set -g __fc_ws ''
    set -g __fc_form ''
    set -g __fc_prof ''
    set -l pending ''
    __formctl_spec ''
    for w in $tokens[2..-1]
        if test -n "$pending"
            set -l flag $pending
            set pending ''
            if not string match -q -- '-*' $w; or not contains -- $flag $__fc_oopts
                switch $flag
                    case -w --workspace
                        set __fc_ws $w
                    case --profile
                        set __fc_prof $w
                    case --form
                        set __fc_form $w
                end
                continue
            end
        end
        if string match -q -- '-?*' $w
            set -l flag (string split -m1 = -- $w)[1]
            if string match -q -- '*=*' $w
                set -l val (string split -m1 = -- $w)[2]
                switch $flag
                    case -w --workspace
                        set __fc_ws $val
                    case --profile
                        set __fc_prof $val
                    case --form
                        set __fc_form $val
                end
            else if contains -- $flag $__fc_vopts
                set pending $flag
            end
            continue
        end
        if test (count $pos) -eq 0; and contains -- $w $__fc_subs
            set -l name $w
            for a in $__fc_aliases
                set -l kv (string split -m1 : -- $a)
                test "$kv[1]" = "$w"; and set name $kv[2]
            end
            set p (string trim -- "$p $name")
            __formctl_spec $p
            continue
        end
        set pos $pos $w
    end
    # The form an integration belongs to is the positional completed from "dyn:forms", if any.
    for i in (seq (count $__fc_args))
        if test $i -le (count $pos); and test (string replace -r '\.\.\.$' '' -- $__fc_args[$i]) = dyn:forms
            set __fc_form $pos[$i]
        end
    end
    if test -n "$pending"; and begin; not string match -q -- '-*' $cur; or not contains -- $pending $__fc_oopts; end
        __formctl_values (__formctl_optval $p $pending) ''
        return
    end
    if string match -q -- '--*=*' $cur
        set -l flag (string split -m1 = -- $cur)[1]
        __formctl_values (__formctl_optval $p $flag) "$flag="
        return
    end
    if string match -q -- '-*' $cur
        for i in (seq (count $__fc_opts))
            printf '%s\t%s\n' $__fc_opts[$i] $__fc_optdescs[$i]
        end
        return
    end
    if test (count $pos) -eq 0; and test (count $__fc_subs) -gt 0
        for i in (seq (count $__fc_subs))
            printf '%s\t%s\n' $__fc_subs[$i] $__fc_subdescs[$i]
        end
        return
    end
    set -l n (math (count $pos) + 1)
    set -l spec ''
    if test $n -le (count $__fc_args)
        set spec $__fc_args[$n]
    else if test (count $__fc_args) -gt 0; and string match -q -- '*...' $__fc_args[-1]
        set spec $__fc_args[-1]
    end
    test -n "$spec"; and __formctl_values (string replace -r '\.\.\.$' '' -- $spec) ''
end

complete -c formctl -f -a '(__formctl_complete)'
