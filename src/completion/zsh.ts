// Renders the completion model as a zsh completion function (`_formctl`), with descriptions for
// commands, options and dynamic values. Works from $fpath (autoload) and from `source <(…)`.
import { type CommandSpec, allCommands, encodeValues } from './model.js';

/** Single-quotes a string for zsh. */
function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A `_describe` entry: "name:description", colons in the name escaped. */
function entry(name: string, description: string): string {
  return q(`${name.replace(/:/g, '\\:')}:${description}`);
}

function list(items: string[]): string {
  return `(${items.join(' ')})`;
}

function specBranch(c: CommandSpec): string {
  const subs = c.commands.flatMap((s) => [s.name, ...s.aliases].map((n) => entry(n, s.description)));
  const aliases = c.commands.flatMap((s) => s.aliases.map((a) => q(`${a}:${s.name}`)));
  const opts = c.options.flatMap((o) => o.flags.map((fl) => entry(fl, o.description)));
  const vopts = c.options.filter((o) => o.value !== 'none').flatMap((o) => o.flags.map(q));
  const oopts = c.options.filter((o) => o.value === 'optional').flatMap((o) => o.flags.map(q));
  const args = c.args.map((a) => q(encodeValues(a.values) + (a.variadic ? '...' : '')));
  const parts = [
    `fc_subs=${list(subs)}`,
    `fc_aliases=${list(aliases)}`,
    `fc_opts=${list(opts)}`,
    `fc_vopts=${list(vopts)}`,
    `fc_oopts=${list(oopts)}`,
    `fc_args=${list(args)}`,
  ];
  return `    (${q(c.path.join(' '))})\n      ${parts.join('\n      ')} ;;`;
}

function optvalBranches(root: CommandSpec): string[] {
  const lines: string[] = [];
  // Root options are accepted everywhere, so they get one wildcard branch each, after the specific ones.
  for (const c of [...allCommands(root).slice(1), root]) {
    for (const o of c.options) {
      const v = encodeValues(o.values);
      if (o.value === 'none' || v === '-' || o.inherited) continue;
      const pattern = o.flags.map((fl) => (c === root ? `*${q(`|${fl}`)}` : q(`${c.path.join(' ')}|${fl}`))).join('|');
      lines.push(`    (${pattern}) fc_spec=${q(v)} ;;`);
    }
  }
  return lines;
}

/** The zsh completion script for the model. */
export function renderZsh(root: CommandSpec): string {
  return `#compdef formctl
# zsh completion for formctl
# Generated from the command tree by \`formctl completion zsh\`; do not edit.
# Install: formctl completion zsh > "\${fpath[1]}/_formctl"   (then restart zsh)
#     or:  echo 'source <(formctl completion zsh)' >> ~/.zshrc   (after compinit)

# Sets the fc_* arrays for a command path (canonical names joined by spaces).
__formctl_spec() {
  fc_subs=() fc_aliases=() fc_opts=() fc_vopts=() fc_oopts=() fc_args=()
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

# Offers the values of spec $1.
__formctl_values() {
  local spec=$1 line
  local -a vals
  case $spec in
    (choices:*)
      vals=(\${(s:,:)\${spec#choices:}})
      compadd -a vals
      ;;
    (file)
      _files
      ;;
    (dyn:*)
      # One call, served from formctl's short-lived cache; it never prompts and is silent on error.
      for line in "\${(@f)$(formctl __complete \${spec#dyn:} \${fc_ws:+--workspace} \${fc_ws} \${fc_form:+--form} \${fc_form} \${fc_prof:+--profile} \${fc_prof} 2>/dev/null)}"; do
        [[ -z $line ]] && continue
        vals+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
      done
      (( \${#vals} )) && _describe -t values "\${spec#dyn:}" vals
      ;;
  esac
}

_formctl() {
  local fc_path= fc_ws= fc_form= fc_prof= fc_pending= fc_spec= w flag val name a i
  local -a fc_subs fc_aliases fc_opts fc_vopts fc_oopts fc_args pos names
  local cur=\${words[CURRENT]}
  __formctl_spec ''
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    if [[ -n $fc_pending ]]; then
      flag=$fc_pending fc_pending=
      if [[ $w != -* || \${fc_oopts[(Ie)$flag]} -eq 0 ]]; then
        case $flag in (-w|--workspace) fc_ws=$w ;; (--profile) fc_prof=$w ;; (--form) fc_form=$w ;; esac
        continue
      fi
    fi
    if [[ $w == -?* ]]; then
      flag=\${w%%=*}
      if [[ $w == *=* ]]; then
        val=\${w#*=}
        case $flag in (-w|--workspace) fc_ws=$val ;; (--profile) fc_prof=$val ;; (--form) fc_form=$val ;; esac
      elif (( \${fc_vopts[(Ie)$flag]} )); then
        fc_pending=$flag
      fi
      continue
    fi
    names=(\${fc_subs%%:*})
    if (( \${#pos} == 0 && \${names[(Ie)$w]} )); then
      name=$w
      for a in $fc_aliases; do [[ \${a%%:*} == $w ]] && name=\${a#*:}; done
      fc_path=\${fc_path:+$fc_path }$name
      __formctl_spec "$fc_path"
      continue
    fi
    pos+=("$w")
  done
  # The form an integration belongs to is the positional completed from "dyn:forms", if any.
  for (( i = 1; i <= \${#fc_args} && i <= \${#pos}; i++ )); do
    [[ \${fc_args[i]%...} == dyn:forms ]] && fc_form=\${pos[i]}
  done
  if [[ -n $fc_pending && ( $cur != -* || \${fc_oopts[(Ie)$fc_pending]} -eq 0 ) ]]; then
    __formctl_optval "$fc_path" "$fc_pending"
    __formctl_values "$fc_spec"
    return 0
  fi
  if [[ $cur == --*=* ]]; then
    __formctl_optval "$fc_path" "\${cur%%=*}"
    compset -P '*='
    __formctl_values "$fc_spec"
    return 0
  fi
  if [[ $cur == -* ]]; then
    _describe -t options option fc_opts
    return 0
  fi
  if (( \${#pos} == 0 && \${#fc_subs} )); then
    _describe -t commands 'formctl command' fc_subs
    return 0
  fi
  local n=$(( \${#pos} + 1 )) spec=
  if (( n <= \${#fc_args} )); then
    spec=\${fc_args[n]}
  elif (( \${#fc_args} )) && [[ \${fc_args[-1]} == *... ]]; then
    spec=\${fc_args[-1]}
  fi
  [[ -n $spec ]] && __formctl_values "\${spec%...}"
  return 0
}

if [[ \${funcstack[1]} == _formctl ]]; then
  _formctl "$@"
else
  compdef _formctl formctl
fi
`;
}
