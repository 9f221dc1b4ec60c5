# bash completion for formctl
# Hands the words on the line to `formctl __complete`, which answers with one candidate a line
# ("value<TAB>description") and a last line ":<directive>" (bit 1: file names, bit 2: directories,
# bit 4: no space after the inserted value).
# Needs bash >= 4 and nothing else: the bash-completion package is not needed when this file is sourced.
# Install: formctl completion bash > ~/.formctl-completion.bash
#          echo 'source ~/.formctl-completion.bash' >> ~/.bashrc

_formctl() {
  COMPREPLY=()
  local -a words lines values descs
  local i n join= keep= cur line directive width entry quoted=$'^(-[^=]*=)?(["\'])(.*)$'
  # Bash splits "--flag=value" at "=" (COMP_WORDBREAKS); the pieces are joined back into one word.
  for (( i = 1; i <= COMP_CWORD; i++ )); do
    if [[ -n $join ]]; then
      words[${#words[@]}-1]+=${COMP_WORDS[i]}
      join=
    elif [[ ${COMP_WORDS[i]} == = && ${#words[@]} -gt 0 && ${words[${#words[@]}-1]} == -* ]]; then
      words[${#words[@]}-1]+='='
      join=1
    else
      words+=("${COMP_WORDS[i]}")
    fi
  done
  # A quoted word comes with its quotes ('"Con'); formctl gets the text (Con). Readline replaces only
  # what follows an opening quote and closes it itself, so the replies stay bare.
  for (( i = 0; i < ${#words[@]}; i++ )); do
    [[ ${words[i]} =~ $quoted ]] || continue
    line=${BASH_REMATCH[3]}
    [[ $line == *"${BASH_REMATCH[2]}" ]] && line=${line%?}
    words[i]=${BASH_REMATCH[1]}$line
    (( i == ${#words[@]} - 1 )) && [[ -n ${BASH_REMATCH[1]} ]] && keep=-
  done
  cur=${words[${#words[@]}-1]}
  mapfile -t lines < <(formctl __complete "${words[@]}" 2>/dev/null)
  n=${#lines[@]}
  (( n > 0 )) && [[ ${lines[n-1]} =~ ^:[0-9]+$ ]] || return 0
  directive=${lines[n-1]#:}
  unset 'lines[n-1]'
  # After "--flag=", readline replaces only the text after "=" when "=" breaks words (bash's default):
  # the replies are bare values. Where it does not, the whole word is replaced: "--flag=" is kept.
  if [[ $cur == -*=* ]]; then
    [[ $COMP_WORDBREAKS == *=* || -n $keep ]] || keep=${cur%%=*}=
    [[ $keep == - ]] && keep=
    cur=${cur#*=}
  fi
  if (( directive & 3 )); then
    compopt -o filenames 2>/dev/null
    if (( directive & 2 )); then
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    [[ -n $keep ]] && COMPREPLY=("${COMPREPLY[@]/#/$keep}")
    return 0
  fi
  # A list value goes on after the inserted one ("id,title" then ",…"): no space after it.
  (( directive & 4 )) && compopt -o nospace 2>/dev/null
  for line in "${lines[@]}"; do
    values+=("$keep${line%%$'\t'*}")
    if [[ $line == *$'\t'* ]]; then descs+=("${line#*$'\t'}"); else descs+=(''); fi
  done
  # One candidate is inserted as it is; several are listed with their descriptions beside them when
  # readline shows a list (Tab, Tab Tab, show-all-if-…), never when it inserts them (menu-complete).
  if (( ${#values[@]} < 2 )) || [[ ! ${COMP_TYPE-} =~ ^(9|33|63|64)$ ]] || [[ -z ${descs[*]// /} ]]; then
    COMPREPLY=("${values[@]}")
    return 0
  fi
  width=0
  for line in "${values[@]}"; do (( ${#line} > width )) && width=${#line}; done
  for (( i = 0; i < ${#values[@]}; i++ )); do
    entry=${values[i]}
    if [[ -n ${descs[i]} ]]; then
      printf -v entry '%-*s  (%s)' "$width" "${values[i]}" "${descs[i]}"
      (( ${#entry} > ${COLUMNS:-80} - 2 )) && entry="${entry:0:${COLUMNS:-80}-6}...)"
    fi
    COMPREPLY+=("$entry")
  done
  return 0
}

complete -F _formctl formctl
