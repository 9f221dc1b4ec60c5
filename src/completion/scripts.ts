// The completion scripts: one small fixed script per shell. Each hands the words on the command
// line to `formctl __complete <words…>` and shows its answer; all the knowledge of commands, flags
// and values lives in the resolver (resolve.ts). The protocol is described in docs/completion.md.

/** Shells formctl prints a completion script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each shell's script is checked in, under completions/. */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'formctl.bash', zsh: '_formctl', fish: 'formctl.fish' };

const BASH = `# bash completion for formctl
# Hands the words on the line to \`formctl __complete\`, which answers with one candidate a line
# ("value<TAB>description") and a last line ":<directive>" (bit 1: file names, bit 2: directories,
# bit 4: no space after the inserted value).
# Needs bash >= 4 and nothing else: the bash-completion package is not needed when this file is sourced.
# Install: formctl completion bash > ~/.formctl-completion.bash
#          echo 'source ~/.formctl-completion.bash' >> ~/.bashrc

_formctl() {
  COMPREPLY=()
  local -a words lines values descs
  local i n join= keep= cur line directive width entry quoted=$'^(-[^=]*=)?(["\\'])(.*)$'
  # Bash splits "--flag=value" at "=" (COMP_WORDBREAKS); the pieces are joined back into one word.
  for (( i = 1; i <= COMP_CWORD; i++ )); do
    if [[ -n $join ]]; then
      words[\${#words[@]}-1]+=\${COMP_WORDS[i]}
      join=
    elif [[ \${COMP_WORDS[i]} == = && \${#words[@]} -gt 0 && \${words[\${#words[@]}-1]} == -* ]]; then
      words[\${#words[@]}-1]+='='
      join=1
    else
      words+=("\${COMP_WORDS[i]}")
    fi
  done
  # A quoted word comes with its quotes ('"Con'); formctl gets the text (Con). Readline replaces only
  # what follows an opening quote and closes it itself, so the replies stay bare.
  for (( i = 0; i < \${#words[@]}; i++ )); do
    [[ \${words[i]} =~ $quoted ]] || continue
    line=\${BASH_REMATCH[3]}
    [[ $line == *"\${BASH_REMATCH[2]}" ]] && line=\${line%?}
    words[i]=\${BASH_REMATCH[1]}$line
    (( i == \${#words[@]} - 1 )) && [[ -n \${BASH_REMATCH[1]} ]] && keep=-
  done
  cur=\${words[\${#words[@]}-1]}
  mapfile -t lines < <(formctl __complete "\${words[@]}" 2>/dev/null)
  n=\${#lines[@]}
  (( n > 0 )) && [[ \${lines[n-1]} =~ ^:[0-9]+$ ]] || return 0
  directive=\${lines[n-1]#:}
  unset 'lines[n-1]'
  # After "--flag=", readline replaces only the text after "=" when "=" breaks words (bash's default):
  # the replies are bare values. Where it does not, the whole word is replaced: "--flag=" is kept.
  if [[ $cur == -*=* ]]; then
    [[ $COMP_WORDBREAKS == *=* || -n $keep ]] || keep=\${cur%%=*}=
    [[ $keep == - ]] && keep=
    cur=\${cur#*=}
  fi
  if (( directive & 3 )); then
    compopt -o filenames 2>/dev/null
    if (( directive & 2 )); then
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    [[ -n $keep ]] && COMPREPLY=("\${COMPREPLY[@]/#/$keep}")
    return 0
  fi
  # A list value goes on after the inserted one ("id,title" then ",…"): no space after it.
  (( directive & 4 )) && compopt -o nospace 2>/dev/null
  for line in "\${lines[@]}"; do
    values+=("$keep\${line%%$'\\t'*}")
    if [[ $line == *$'\\t'* ]]; then descs+=("\${line#*$'\\t'}"); else descs+=(''); fi
  done
  # One candidate is inserted as it is; several are listed with their descriptions beside them when
  # readline shows a list (Tab, Tab Tab, show-all-if-…), never when it inserts them (menu-complete).
  if (( \${#values[@]} < 2 )) || [[ ! \${COMP_TYPE-} =~ ^(9|33|63|64)$ ]] || [[ -z \${descs[*]// /} ]]; then
    COMPREPLY=("\${values[@]}")
    return 0
  fi
  width=0
  for line in "\${values[@]}"; do (( \${#line} > width )) && width=\${#line}; done
  for (( i = 0; i < \${#values[@]}; i++ )); do
    entry=\${values[i]}
    if [[ -n \${descs[i]} ]]; then
      printf -v entry '%-*s  (%s)' "$width" "\${values[i]}" "\${descs[i]}"
      (( \${#entry} > \${COLUMNS:-80} - 2 )) && entry="\${entry:0:\${COLUMNS:-80}-6}...)"
    fi
    COMPREPLY+=("$entry")
  done
  return 0
}

complete -F _formctl formctl
`;

const ZSH = `#compdef formctl
# zsh completion for formctl
# Hands the words on the line to \`formctl __complete\`, which answers with one candidate a line
# ("value<TAB>description") and a last line ":<directive>" (bit 1: file names, bit 2: directories,
# bit 4: no space after the inserted value).
# Install: mkdir -p ~/.zfunc && formctl completion zsh > ~/.zfunc/_formctl
#          (with fpath=(~/.zfunc $fpath) in ~/.zshrc before compinit; then restart zsh)
#     or:  echo 'source <(formctl completion zsh)' >> ~/.zshrc   (after compinit)

_formctl() {
  local -a lines cands nospace
  local line directive cur=$PREFIX
  # The words before the cursor's lose their quotes with (Q). At the cursor, zsh keeps an opening
  # quote in the word ('"ba') but not in PREFIX (the text before the cursor, unquoted then; only
  # backslash escapes are left in it): formctl gets the text (ba).
  [[ -z $compstate[quote] ]] && cur=\${(Q)cur}
  lines=("\${(@f)$(formctl __complete "\${(@Q)words[2,CURRENT-1]}" "$cur" 2>/dev/null)}")
  directive=\${lines[-1]}
  [[ $directive == :<-> ]] || return 1
  directive=\${directive#:}
  lines=("\${(@)lines[1,-2]}")
  # After "--flag=", only the text after "=" is completed.
  [[ $cur == -*=* ]] && compset -P '*='
  if (( directive & 2 )); then
    _files -/
    return
  fi
  if (( directive & 1 )); then
    _files
    return
  fi
  for line in "\${lines[@]}"; do
    [[ -z $line ]] && continue
    if [[ $line == *$'\\t'* ]]; then
      cands+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      cands+=("\${line//:/\\\\:}")
    fi
  done
  # A list value goes on after the inserted one ("id,title" then ",…"): no space after it.
  (( directive & 4 )) && nospace=(-S '')
  # formctl answers choices in any letter case when none matches in the typed one (api -X p: PUT…):
  # the matcher lets zsh insert them over the typed word.
  (( \${#cands} )) && _describe -t values formctl cands "\${nospace[@]}" -M 'm:{[:lower:][:upper:]}={[:upper:][:lower:]}'
}

if [[ \${funcstack[1]} == _formctl ]]; then
  _formctl "$@"
else
  compdef _formctl formctl
fi
`;

const FISH = `# fish completion for formctl
# Hands the words on the line to \`formctl __complete\`, which answers with one candidate a line
# ("value<TAB>description") and a last line ":<directive>" (bit 1: file names, bit 2: directories,
# bit 4: no space after the inserted value).
# Install: mkdir -p ~/.config/fish/completions
#          formctl completion fish > ~/.config/fish/completions/formctl.fish

function __formctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    # The word at the cursor as fish reads it: without quotes or escapes ("'ba" is ba), as the
    # words before it (-o) are; fish matches the candidates against that text too.
    set -l cur (commandline -ot)
    set -l out (formctl __complete $words "$cur" 2>/dev/null)
    set -q out[1]; or return
    string match -qr '^:[0-9]+$' -- $out[-1]; or return
    set -l directive (string sub -s 2 -- $out[-1])
    set -e out[-1]
    # Bit 4 (no space after) has no fish equivalent: fish adds the space after a unique value.
    # After "--flag=", fish matches the whole word: each value gets the "--flag=" in front again.
    set -l prefix (string match -r -- '^-[^=]*=' "$cur")
    set -l value (string sub -s (math (string length -- "$prefix") + 1) -- "$cur")
    if test (math "floor($directive / 2) % 2") -eq 1
        for p in (__fish_complete_directories "$value")
            echo "$prefix$p"
        end
    else if test (math "$directive % 2") -eq 1
        for p in (__fish_complete_path "$value")
            echo "$prefix$p"
        end
    else
        for line in $out
            echo "$prefix$line"
        end
    end
end

complete -c formctl -f -a '(__formctl_complete)'
`;

/** The completion script for a shell. */
export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return BASH;
    case 'zsh':
      return ZSH;
    case 'fish':
      return FISH;
  }
}
