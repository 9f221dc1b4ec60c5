// Renders the completion model as a fish script: one function prints "value<TAB>description"
// candidates for the current command line, and fish does the prefix matching.
import { type CommandSpec, allCommands, encodeValues } from './model.js';

/** Single-quotes a string for fish (only \\ and ' are special inside). */
function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function set(name: string, items: string[]): string {
  return `set -g ${name}${items.map((i) => ` ${q(i)}`).join('')}`;
}

function specBranch(c: CommandSpec): string {
  const subs = c.commands.flatMap((s) => [s.name, ...s.aliases]);
  const subDescs = c.commands.flatMap((s) => [s.name, ...s.aliases].map(() => s.description));
  const parts = [
    set('__fc_subs', subs),
    set('__fc_subdescs', subDescs),
    set('__fc_aliases', c.commands.flatMap((s) => s.aliases.map((a) => `${a}:${s.name}`))),
    set('__fc_opts', c.options.flatMap((o) => o.flags)),
    set('__fc_optdescs', c.options.flatMap((o) => o.flags.map(() => o.description))),
    set('__fc_vopts', c.options.filter((o) => o.value !== 'none').flatMap((o) => o.flags)),
    set('__fc_oopts', c.options.filter((o) => o.value === 'optional').flatMap((o) => o.flags)),
    set('__fc_args', c.args.map((a) => encodeValues(a.values) + (a.variadic ? '...' : ''))),
  ];
  return `        case ${q(c.path.join(' '))}\n            ${parts.join('\n            ')}`;
}

function optvalBranches(root: CommandSpec): string[] {
  const lines: string[] = [];
  // Root options are accepted everywhere, so they get one wildcard case each, after the specific ones.
  for (const c of [...allCommands(root).slice(1), root]) {
    for (const o of c.options) {
      const v = encodeValues(o.values);
      if (o.value === 'none' || v === '-' || o.inherited) continue;
      const pattern = o.flags.map((fl) => q(`${c === root ? '*' : c.path.join(' ')}|${fl}`)).join(' ');
      lines.push(`        case ${pattern}\n            echo ${q(v)}`);
    }
  }
  return lines;
}

/** The fish completion script for the model. */
export function renderFish(root: CommandSpec): string {
  return `# fish completion for formctl
# Generated from the command tree by \`formctl completion fish\`; do not edit.
# Install: formctl completion fish > ~/.config/fish/completions/formctl.fish

# Sets the __fc_* lists for a command path (canonical names joined by spaces).
function __formctl_spec -a p
    for v in __fc_subs __fc_subdescs __fc_aliases __fc_opts __fc_optdescs __fc_vopts __fc_oopts __fc_args
        set -g $v
    end
    switch $p
${allCommands(root).map(specBranch).join('\n')}
    end
end

# Prints what follows option $2 of command path $1: -, file, dyn:<source> or choices:<a,b>.
function __formctl_optval -a p flag
    switch "$p|$flag"
${optvalBranches(root).join('\n')}
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
        if test $i -le (count $pos); and test (string replace -r '\\.\\.\\.$' '' -- $__fc_args[$i]) = dyn:forms
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
            printf '%s\\t%s\\n' $__fc_opts[$i] $__fc_optdescs[$i]
        end
        return
    end
    if test (count $pos) -eq 0; and test (count $__fc_subs) -gt 0
        for i in (seq (count $__fc_subs))
            printf '%s\\t%s\\n' $__fc_subs[$i] $__fc_subdescs[$i]
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
    test -n "$spec"; and __formctl_values (string replace -r '\\.\\.\\.$' '' -- $spec) ''
end

complete -c formctl -f -a '(__formctl_complete)'
`;
}
