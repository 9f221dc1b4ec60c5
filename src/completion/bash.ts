// Renders the completion model as a bash script. The script is data (one case branch per command)
// plus a fixed driver; it needs bash >= 4 and nothing else (not even the bash-completion package).
import { type CommandSpec, allCommands, encodeValues } from './model.js';

/** Single-quotes a string for bash. */
function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function specBranch(c: CommandSpec): string {
  const subs = c.commands.flatMap((s) => [s.name, ...s.aliases]);
  const aliases = c.commands.flatMap((s) => s.aliases.map((a) => `${a}:${s.name}`));
  const opts = c.options.flatMap((o) => o.flags);
  const vopts = c.options.filter((o) => o.value !== 'none').flatMap((o) => o.flags);
  const oopts = c.options.filter((o) => o.value === 'optional').flatMap((o) => o.flags);
  const args = c.args.map((a) => encodeValues(a.values) + (a.variadic ? '...' : ''));
  const parts = [
    `fc_subs=${q(subs.join(' '))}`,
    `fc_aliases=${q(aliases.join(' '))}`,
    `fc_opts=${q(opts.join(' '))}`,
    `fc_vopts=${q(vopts.join(' '))}`,
    `fc_oopts=${q(oopts.join(' '))}`,
    `fc_args=${q(args.join(' '))}`,
  ];
  return `    ${q(c.path.join(' '))})\n      ${parts.join('\n      ')} ;;`;
}

function optvalBranches(root: CommandSpec): string[] {
  const lines: string[] = [];
  // Root options are accepted everywhere, so they get one wildcard branch each, after the specific ones.
  for (const c of [...allCommands(root).slice(1), root]) {
    for (const o of c.options) {
      const v = encodeValues(o.values);
      if (o.value === 'none' || v === '-' || o.inherited) continue;
      const pattern = o.flags.map((fl) => (c === root ? `*${q(`|${fl}`)}` : q(`${c.path.join(' ')}|${fl}`))).join('|');
      lines.push(`    ${pattern}) fc_spec=${q(v)} ;;`);
    }
  }
  return lines;
}

/** The bash completion script for the model. */
export function renderBash(root: CommandSpec): string {
  return `# bash completion for formctl
# Generated from the command tree by \`formctl completion bash\`; do not edit.
# Install: formctl completion bash > ~/.local/share/bash-completion/completions/formctl
#     or:  echo 'source <(formctl completion bash)' >> ~/.bashrc

# Sets the fc_* variables for a command path (canonical names joined by spaces).
__formctl_spec() {
  fc_subs= fc_aliases= fc_opts= fc_vopts= fc_oopts= fc_args=
  case "$1" in
${allCommands(root).map(specBranch).join('\n')}
  esac
}

# Sets fc_spec to what follows option $2 of command path $1: -, file, dyn:<source> or choices:<a,b>.
__formctl_optval() {
  fc_spec=-
  case "$1|$2" in
${optvalBranches(root).join('\n')}
  esac
}

# Adds the values of spec $1 that start with $2 to COMPREPLY.
__formctl_values() {
  local spec=$1 cur=$2 v rest
  case "$spec" in
    choices:*)
      v=\${spec#choices:}
      COMPREPLY=($(compgen -W "\${v//,/ }" -- "$cur"))
      ;;
    file)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
    dyn:*)
      # One call, served from formctl's short-lived cache; it never prompts and is silent on error.
      while IFS=$'\\t' read -r v rest; do
        [[ -n $v && $v == "$cur"* ]] && COMPREPLY+=("$v")
      done < <(formctl __complete "\${spec#dyn:}" \${fc_ws:+--workspace "$fc_ws"} \${fc_form:+--form "$fc_form"} \${fc_prof:+--profile "$fc_prof"} 2>/dev/null)
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
      words[\${#words[@]}-1]+=\${COMP_WORDS[k]}
      join=
    elif [[ \${COMP_WORDS[k]} == = && \${#words[@]} -gt 1 && \${words[\${#words[@]}-1]} == -* ]]; then
      words[\${#words[@]}-1]+='='
      join=1
    else
      words+=("\${COMP_WORDS[k]}")
    fi
  done
  local cur=\${words[\${#words[@]}-1]} i w flag val name a
  __formctl_spec ''
  for (( i = 1; i < \${#words[@]} - 1; i++ )); do
    w=\${words[i]}
    if [[ -n $fc_pending ]]; then
      flag=$fc_pending fc_pending=
      if [[ $w != -* || " $fc_oopts " != *" $flag "* ]]; then
        val=$w
        case $flag in -w|--workspace) fc_ws=$val ;; --profile) fc_prof=$val ;; --form) fc_form=$val ;; esac
        continue
      fi
    fi
    if [[ $w == -?* ]]; then
      flag=\${w%%=*}
      if [[ $w == *=* ]]; then
        val=\${w#*=}
        case $flag in -w|--workspace) fc_ws=$val ;; --profile) fc_prof=$val ;; --form) fc_form=$val ;; esac
      elif [[ " $fc_vopts " == *" $flag "* ]]; then
        fc_pending=$flag
      fi
      continue
    fi
    if (( \${#pos[@]} == 0 )) && [[ -n $fc_subs && " $fc_subs " == *" $w "* ]]; then
      name=$w
      for a in $fc_aliases; do [[ \${a%%:*} == "$w" ]] && name=\${a#*:}; done
      fc_path=\${fc_path:+$fc_path }$name
      __formctl_spec "$fc_path"
      continue
    fi
    pos+=("$w")
  done
  read -ra specs <<< "$fc_args"
  # The form an integration belongs to is the positional completed from "dyn:forms", if any.
  for (( i = 0; i < \${#specs[@]} && i < \${#pos[@]}; i++ )); do
    [[ \${specs[i]%...} == dyn:forms ]] && fc_form=\${pos[i]}
  done
  if [[ -n $fc_pending && ( $cur != -* || " $fc_oopts " != *" $fc_pending "* ) ]]; then
    __formctl_optval "$fc_path" "$fc_pending"
    __formctl_values "$fc_spec" "$cur"
    return 0
  fi
  if [[ $cur == --*=* ]]; then
    __formctl_optval "$fc_path" "\${cur%%=*}"
    __formctl_values "$fc_spec" "\${cur#*=}"
    # Readline replaces only the text after "=" (a word break), so the replies are bare values.
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$fc_opts" -- "$cur"))
    return 0
  fi
  if (( \${#pos[@]} == 0 )) && [[ -n $fc_subs ]]; then
    COMPREPLY=($(compgen -W "$fc_subs" -- "$cur"))
    return 0
  fi
  local n=\${#pos[@]} spec=
  if (( n < \${#specs[@]} )); then
    spec=\${specs[n]}
  elif (( \${#specs[@]} > 0 )) && [[ \${specs[\${#specs[@]}-1]} == *... ]]; then
    spec=\${specs[\${#specs[@]}-1]}
  fi
  [[ -n $spec ]] && __formctl_values "\${spec%...}" "$cur"
  return 0
}

complete -F _formctl formctl
`;
}
