# bash completion for formctl
# Generated from the command tree by `formctl completion bash`; do not edit.
# Install: formctl completion bash > ~/.local/share/bash-completion/completions/formctl
#     or:  echo 'source <(formctl completion bash)' >> ~/.bashrc

# Sets the fc_* variables for a command path (canonical names joined by spaces).
__formctl_spec() {
  fc_subs= fc_aliases= fc_opts= fc_vopts= fc_oopts= fc_args=
  case "$1" in
    '')
      fc_subs='auth profile workspace ws form submission member invite webhook api config completion sandbox help'
      fc_aliases='ws:workspace'
      fc_opts='-v --version --profile --debug --timeout --max-wait --no-input --no-color -h --help'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'auth')
      fc_subs='login status logout token'
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'auth login')
      fc_subs=''
      fc_aliases=''
      fc_opts='--base-url --with-token -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--base-url --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'auth status')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'auth logout')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'auth token')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'profile')
      fc_subs='list ls use remove rm'
      fc_aliases='ls:list rm:remove'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'profile list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'profile use')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:profiles' ;;
    'profile remove')
      fc_subs=''
      fc_aliases=''
      fc_opts='-y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:profiles' ;;
    'workspace')
      fc_subs='list ls create update delete rm leave use'
      fc_aliases='ls:list rm:delete'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'workspace list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--all -L --limit --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-L --limit --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'workspace create')
      fc_subs=''
      fc_aliases=''
      fc_opts='--name --emoji --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--name --emoji --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'workspace update')
      fc_subs=''
      fc_aliases=''
      fc_opts='--name --emoji --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--name --emoji --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:workspaces' ;;
    'workspace delete')
      fc_subs=''
      fc_aliases=''
      fc_opts='-y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:workspaces' ;;
    'workspace leave')
      fc_subs=''
      fc_aliases=''
      fc_opts='--force -y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:workspaces' ;;
    'workspace use')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:workspaces' ;;
    'form')
      fc_subs='list ls get view fields create update edit delete rm pull apply backups restore list-all'
      fc_aliases='ls:list view:get rm:delete'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'form list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--all -L --limit --page --visibility --tag -w --workspace --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-L --limit --page --visibility --tag -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'form get')
      fc_subs=''
      fc_aliases=''
      fc_opts='-w --workspace --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form fields')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form create')
      fc_subs=''
      fc_aliases=''
      fc_opts='--title --visibility --language -f --file --field --set --no-validate -w --workspace --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--title --visibility --language -f --file --field --set -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'form update')
      fc_subs=''
      fc_aliases=''
      fc_opts='--title --visibility --set -f --file --dry-run --force --no-validate --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--title --visibility --set -f --file --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form edit')
      fc_subs=''
      fc_aliases=''
      fc_opts='--dry-run --force --no-validate -y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms' ;;
    'form delete')
      fc_subs=''
      fc_aliases=''
      fc_opts='-y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form pull')
      fc_subs=''
      fc_aliases=''
      fc_opts='-o --output --force --include-secrets -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-o --output --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms' ;;
    'form apply')
      fc_subs=''
      fc_aliases=''
      fc_opts='-f --file -w --workspace --dry-run --force --no-validate --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-f --file -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'form backups')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form restore')
      fc_subs=''
      fc_aliases=''
      fc_opts='--backup --dry-run --force --no-validate -y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--backup --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'form list-all')
      fc_subs=''
      fc_aliases=''
      fc_opts='--all -L --limit --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-L --limit --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'submission')
      fc_subs='list ls update delete rm export export-status'
      fc_aliases='ls:list rm:delete'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'submission list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--status --search --all -L --limit --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--status --search -L --limit --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'submission update')
      fc_subs=''
      fc_aliases=''
      fc_opts='--set --file --from --concurrency --rate-limit --results --resume --dry-run -y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--set --file --from --concurrency --rate-limit --results --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms -' ;;
    'submission delete')
      fc_subs=''
      fc_aliases=''
      fc_opts='-y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms -' ;;
    'submission export')
      fc_subs=''
      fc_aliases=''
      fc_opts='--columns --all-columns --no-wait -o --output --clobber --poll-interval --wait-timeout --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--columns -o --output --poll-interval --wait-timeout --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms' ;;
    'submission export-status')
      fc_subs=''
      fc_aliases=''
      fc_opts='--download -o --output --clobber --poll-interval --wait-timeout --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-o --output --poll-interval --wait-timeout --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms -' ;;
    'member')
      fc_subs='list ls add remove rm set-role'
      fc_aliases='ls:list rm:remove'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'member list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--all -L --limit -w --workspace --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-L --limit -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'member add')
      fc_subs=''
      fc_aliases=''
      fc_opts='--role -w --workspace --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--role -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='-' ;;
    'member remove')
      fc_subs=''
      fc_aliases=''
      fc_opts='--force -w --workspace -y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='-' ;;
    'member set-role')
      fc_subs=''
      fc_aliases=''
      fc_opts='--force -w --workspace -y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='- choices:admin,user,readonly' ;;
    'invite')
      fc_subs='list ls resend cancel'
      fc_aliases='ls:list'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'invite list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--status --all -L --limit -w --workspace --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--status -L --limit -w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'invite resend')
      fc_subs=''
      fc_aliases=''
      fc_opts='-w --workspace --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='-' ;;
    'invite cancel')
      fc_subs=''
      fc_aliases=''
      fc_opts='-w --workspace -y --yes --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-w --workspace --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='-' ;;
    'webhook')
      fc_subs='list ls get view create update rotate-secret delete rm events verify sign listen send trigger'
      fc_aliases='ls:list view:get rm:delete'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'webhook list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--all -L --limit --show-secret --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-L --limit --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'webhook get')
      fc_subs=''
      fc_aliases=''
      fc_opts='--show-secret --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms dyn:integrations' ;;
    'webhook create')
      fc_subs=''
      fc_aliases=''
      fc_opts='--url --secret-file --secret-stdin --generate-secret --header --inactive --logic-file --allow-private --show-secret --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--url --secret-file --header --logic-file --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'webhook update')
      fc_subs=''
      fc_aliases=''
      fc_opts='--url --header --clear-headers --activate --deactivate --logic-file --secret-file --no-secret --allow-private --show-secret --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--url --header --logic-file --secret-file --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms dyn:integrations' ;;
    'webhook rotate-secret')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms dyn:integrations' ;;
    'webhook delete')
      fc_subs=''
      fc_aliases=''
      fc_opts='-y --yes -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='dyn:forms dyn:integrations' ;;
    'webhook events')
      fc_subs=''
      fc_aliases=''
      fc_opts='--status -f --follow --interval --all -L --limit --json --ndjson -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--status --interval -L --limit --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms dyn:integrations' ;;
    'webhook verify')
      fc_subs=''
      fc_aliases=''
      fc_opts='--secret-file --signature --header-file --body-file --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--secret-file --signature --header-file --body-file --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'webhook sign')
      fc_subs=''
      fc_aliases=''
      fc_opts='--secret-file --body-file -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--secret-file --body-file --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'webhook listen')
      fc_subs=''
      fc_aliases=''
      fc_opts='--port --host --secret-file --forward-to --save-dir --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--port --host --secret-file --forward-to --save-dir --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'webhook send')
      fc_subs=''
      fc_aliases=''
      fc_opts='--secret-file --form --sample --body-file --header --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--secret-file --form --body-file --header --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='-' ;;
    'webhook trigger')
      fc_subs=''
      fc_aliases=''
      fc_opts='-d --data --json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-d --data --json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='dyn:forms' ;;
    'api')
      fc_subs=''
      fc_aliases=''
      fc_opts='-X --method -f --raw-field -F --field --input --paginate -H --header -i --include --silent -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='-X --method -f --raw-field -F --field --input -H --header --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='file' ;;
    'config')
      fc_subs='path list ls get set'
      fc_aliases='ls:list'
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'config path')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'config list')
      fc_subs=''
      fc_aliases=''
      fc_opts='--json -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--json --profile --timeout --max-wait'
      fc_oopts='--json'
      fc_args='' ;;
    'config get')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='-' ;;
    'config set')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='- -' ;;
    'completion')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='choices:bash,zsh,fish' ;;
    'sandbox')
      fc_subs=''
      fc_aliases=''
      fc_opts='--flavor --user --host --port --data --rate-limit --export-async-threshold --allow-private-webhooks --community --seed --profile-name --json --ready-file -h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--flavor --user --host --port --data --rate-limit --export-async-threshold --seed --profile-name --ready-file --profile --timeout --max-wait'
      fc_oopts=''
      fc_args='' ;;
    'help')
      fc_subs=''
      fc_aliases=''
      fc_opts='-h --help --profile --debug --timeout --max-wait --no-input --no-color'
      fc_vopts='--profile --timeout --max-wait'
      fc_oopts=''
      fc_args='choices:environment,exit-codes,auth,profile,workspace,form,submission,member,invite,webhook,api,config,completion,sandbox...' ;;
  esac
}

# Sets fc_spec to what follows option $2 of command path $1: -, file, dyn:<source> or choices:<a,b>.
__formctl_optval() {
  fc_spec=-
  case "$1|$2" in
    'form list|--visibility') fc_spec='choices:public,draft,closed' ;;
    'form list|-w'|'form list|--workspace') fc_spec='dyn:workspaces' ;;
    'form get|-w'|'form get|--workspace') fc_spec='dyn:workspaces' ;;
    'form create|--visibility') fc_spec='choices:public,draft,closed' ;;
    'form create|-f'|'form create|--file') fc_spec='file' ;;
    'form create|-w'|'form create|--workspace') fc_spec='dyn:workspaces' ;;
    'form update|--visibility') fc_spec='choices:public,draft,closed' ;;
    'form update|-f'|'form update|--file') fc_spec='file' ;;
    'form pull|-o'|'form pull|--output') fc_spec='file' ;;
    'form apply|-f'|'form apply|--file') fc_spec='file' ;;
    'form apply|-w'|'form apply|--workspace') fc_spec='dyn:workspaces' ;;
    'form restore|--backup') fc_spec='file' ;;
    'submission list|--status') fc_spec='choices:completed,partial,all' ;;
    'submission update|--file') fc_spec='file' ;;
    'submission update|--from') fc_spec='file' ;;
    'submission update|--results') fc_spec='file' ;;
    'submission export|-o'|'submission export|--output') fc_spec='file' ;;
    'submission export-status|-o'|'submission export-status|--output') fc_spec='file' ;;
    'member list|-w'|'member list|--workspace') fc_spec='dyn:workspaces' ;;
    'member add|--role') fc_spec='choices:admin,user,readonly' ;;
    'member add|-w'|'member add|--workspace') fc_spec='dyn:workspaces' ;;
    'member remove|-w'|'member remove|--workspace') fc_spec='dyn:workspaces' ;;
    'member set-role|-w'|'member set-role|--workspace') fc_spec='dyn:workspaces' ;;
    'invite list|--status') fc_spec='choices:pending,accepted' ;;
    'invite list|-w'|'invite list|--workspace') fc_spec='dyn:workspaces' ;;
    'invite resend|-w'|'invite resend|--workspace') fc_spec='dyn:workspaces' ;;
    'invite cancel|-w'|'invite cancel|--workspace') fc_spec='dyn:workspaces' ;;
    'webhook create|--secret-file') fc_spec='file' ;;
    'webhook create|--logic-file') fc_spec='file' ;;
    'webhook update|--logic-file') fc_spec='file' ;;
    'webhook update|--secret-file') fc_spec='file' ;;
    'webhook events|--status') fc_spec='choices:success,failed,timeout' ;;
    'webhook verify|--secret-file') fc_spec='file' ;;
    'webhook verify|--header-file') fc_spec='file' ;;
    'webhook verify|--body-file') fc_spec='file' ;;
    'webhook sign|--secret-file') fc_spec='file' ;;
    'webhook sign|--body-file') fc_spec='file' ;;
    'webhook listen|--secret-file') fc_spec='file' ;;
    'webhook listen|--save-dir') fc_spec='file' ;;
    'webhook send|--secret-file') fc_spec='file' ;;
    'webhook send|--form') fc_spec='dyn:forms' ;;
    'webhook send|--body-file') fc_spec='file' ;;
    'webhook trigger|-d'|'webhook trigger|--data') fc_spec='file' ;;
    'api|-X'|'api|--method') fc_spec='choices:GET,POST,PUT,PATCH,DELETE,HEAD' ;;
    'api|--input') fc_spec='file' ;;
    'sandbox|--flavor') fc_spec='choices:spec,deployed' ;;
    'sandbox|--data') fc_spec='file' ;;
    'sandbox|--ready-file') fc_spec='file' ;;
    *'|--profile') fc_spec='dyn:profiles' ;;
  esac
}

# Adds the values of spec $1 that start with $2 to COMPREPLY.
__formctl_values() {
  local spec=$1 cur=$2 v rest
  case "$spec" in
    choices:*)
      v=${spec#choices:}
      COMPREPLY=($(compgen -W "${v//,/ }" -- "$cur"))
      ;;
    file)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
    dyn:*)
      # One call, served from formctl's short-lived cache; it never prompts and is silent on error.
      while IFS=$'\t' read -r v rest; do
        [[ -n $v && $v == "$cur"* ]] && COMPREPLY+=("$v")
      done < <(formctl __complete "${spec#dyn:}" ${fc_ws:+--workspace "$fc_ws"} ${fc_form:+--form "$fc_form"} ${fc_prof:+--profile "$fc_prof"} 2>/dev/null)
      ;;
  esac
}

_formctl() {
  COMPREPLY=()
  local fc_path= fc_ws= fc_form= fc_prof= fc_pending= fc_spec k join=
  local fc_subs fc_aliases fc_opts fc_vopts fc_oopts fc_args
  local -a words pos specs
  # Bash splits "--flag=value" at "=" (COMP_WORDBREAKS); the pieces are joined back into one word.
  for (( k = 0; k <= COMP_CWORD; k++ )); do
    if [[ -n $join ]]; then
      words[${#words[@]}-1]+=${COMP_WORDS[k]}
      join=
    elif [[ ${COMP_WORDS[k]} == = && ${#words[@]} -gt 1 && ${words[${#words[@]}-1]} == -* ]]; then
      words[${#words[@]}-1]+='='
      join=1
    else
      words+=("${COMP_WORDS[k]}")
    fi
  done
  local cur=${words[${#words[@]}-1]} i w flag val name a
  __formctl_spec ''
  for (( i = 1; i < ${#words[@]} - 1; i++ )); do
    w=${words[i]}
    if [[ -n $fc_pending ]]; then
      flag=$fc_pending fc_pending=
      if [[ $w != -* || " $fc_oopts " != *" $flag "* ]]; then
        val=$w
        case $flag in -w|--workspace) fc_ws=$val ;; --profile) fc_prof=$val ;; --form) fc_form=$val ;; esac
        continue
      fi
    fi
    if [[ $w == -?* ]]; then
      flag=${w%%=*}
      if [[ $w == *=* ]]; then
        val=${w#*=}
        case $flag in -w|--workspace) fc_ws=$val ;; --profile) fc_prof=$val ;; --form) fc_form=$val ;; esac
      elif [[ " $fc_vopts " == *" $flag "* ]]; then
        fc_pending=$flag
      fi
      continue
    fi
    if (( ${#pos[@]} == 0 )) && [[ -n $fc_subs && " $fc_subs " == *" $w "* ]]; then
      name=$w
      for a in $fc_aliases; do [[ ${a%%:*} == "$w" ]] && name=${a#*:}; done
      fc_path=${fc_path:+$fc_path }$name
      __formctl_spec "$fc_path"
      continue
    fi
    pos+=("$w")
  done
  read -ra specs <<< "$fc_args"
  # The form an integration belongs to is the positional completed from "dyn:forms", if any.
  for (( i = 0; i < ${#specs[@]} && i < ${#pos[@]}; i++ )); do
    [[ ${specs[i]%...} == dyn:forms ]] && fc_form=${pos[i]}
  done
  if [[ -n $fc_pending && ( $cur != -* || " $fc_oopts " != *" $fc_pending "* ) ]]; then
    __formctl_optval "$fc_path" "$fc_pending"
    __formctl_values "$fc_spec" "$cur"
    return 0
  fi
  if [[ $cur == --*=* ]]; then
    __formctl_optval "$fc_path" "${cur%%=*}"
    __formctl_values "$fc_spec" "${cur#*=}"
    # Readline replaces only the text after "=" (a word break), so the replies are bare values.
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$fc_opts" -- "$cur"))
    return 0
  fi
  if (( ${#pos[@]} == 0 )) && [[ -n $fc_subs ]]; then
    COMPREPLY=($(compgen -W "$fc_subs" -- "$cur"))
    return 0
  fi
  local n=${#pos[@]} spec=
  if (( n < ${#specs[@]} )); then
    spec=${specs[n]}
  elif (( ${#specs[@]} > 0 )) && [[ ${specs[${#specs[@]}-1]} == *... ]]; then
    spec=${specs[${#specs[@]}-1]}
  fi
  [[ -n $spec ]] && __formctl_values "${spec%...}" "$cur"
  return 0
}

complete -F _formctl formctl
