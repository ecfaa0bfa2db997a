-- An error whose text reorders itself on the terminal (right-to-left
-- override), hides (isolates) and carries C0, C1 and escape sequences.
error("file \u{202E}gpj.exe\u{202C} \u{2066}x\u{2069} \u{200F}" .. "\27[31m red \194\155 csi \128 bad")
