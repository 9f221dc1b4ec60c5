# fish completion for formctl
# Hands the words on the line to `formctl __complete`, which answers with one candidate a line
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
