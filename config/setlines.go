package config

import "bytes"

// hostapd's SET on a BSS's control socket changes that BSS's
// configuration (its BSS keys) or the radio's (the others), whatever the
// file's order: airqd keeps such lines as a small file of their own, in
// sections as the file's, and places each in its section of the file.

// AddToSection returns a new text: text with line (ending in a newline)
// placed at the end of the section named section: the first ("") ends
// before the first bss= line, a bss= section before the next one. A
// section text lacks is added at its end.
func AddToSection(text []byte, section string, line []byte) []byte {
	out := make([]byte, 0, len(text)+len(line)+len(section)+6)
	out = append(out, text...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	at, found := sectionEnd(out, section)
	if !found {
		out = append(out, "bss="+section+"\n"...)
		return append(out, line...)
	}
	rest := append([]byte(nil), out[at:]...)
	return append(append(out[:at], line...), rest...)
}

// MergeSections returns file with each line of extra placed at the end of
// its section in file (AddToSection), extra's sections named by its own
// bss= lines.
func MergeSections(file, extra []byte) []byte {
	section := ""
	for len(extra) > 0 {
		line := extra
		if i := bytes.IndexByte(extra, '\n'); i >= 0 {
			line = extra[:i+1]
		}
		extra = extra[len(line):]
		if name, ok := bssLine(line); ok {
			section = name
			continue
		}
		if line[len(line)-1] != '\n' {
			line = append(line[:len(line):len(line)], '\n') // a copy: extra is the caller's
		}
		file = AddToSection(file, section, line)
	}
	return file
}

// sectionEnd is the offset where section's lines end in text, and
// whether text has the section.
func sectionEnd(text []byte, section string) (int, bool) {
	in := section == ""
	for off := 0; off < len(text); {
		next := len(text)
		if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		if name, ok := bssLine(text[off:next]); ok {
			if in {
				return off, true
			}
			in = name == section
		}
		off = next
	}
	return len(text), in
}

// bssLine is the name of a bss= line.
func bssLine(line []byte) (string, bool) {
	name, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte{'\n'}), []byte("bss="))
	return string(name), ok
}
