// Package config reads airqd's configuration file: a subset of hostapd.conf
// plus airq's own keys, one key=value per line, '#' starting a comment
// line, later lines overriding earlier ones (aql_txq_limit lines merge, and
// repeated access list files add to the list). Every key is declared once,
// in the table of keys.go, with the flags that override it, whether SIGHUP
// applies it live, what it accepts, and its setter into Settings. An
// unknown key, a bad value and a hostapd key airq does not implement yet
// are errors naming the file, the line, the key and what it accepts.
//
// The daemon parses its flags into Settings, applies the file over them
// (a flag given on the command line wins over its key), checks what spans
// several settings and turns them into the core's and the radio's options.
package config
