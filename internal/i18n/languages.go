package i18n

// The EU's 24 official languages (Regulation No 1/1958, as amended), as data: the
// code a browser sends, the language's name in itself for the switcher, and how a
// day is written in it (numeric, the common CLDR medium form, as a Go layout).
// English is the source language: its messages are the keys of every catalogue.
var languages = []Language{
	{Code: "bg", Name: "български", DateLayout: "2.01.2006 г."},
	{Code: "cs", Name: "čeština", DateLayout: "2. 1. 2006"},
	{Code: "da", Name: "dansk", DateLayout: "02.01.2006"},
	{Code: "de", Name: "Deutsch", DateLayout: "02.01.2006"},
	{Code: "el", Name: "ελληνικά", DateLayout: "2/1/2006"},
	{Code: "en", Name: "English", DateLayout: "2006-01-02"},
	{Code: "es", Name: "español", DateLayout: "2/1/2006"},
	{Code: "et", Name: "eesti", DateLayout: "02.01.2006"},
	{Code: "fi", Name: "suomi", DateLayout: "2.1.2006"},
	{Code: "fr", Name: "français", DateLayout: "02/01/2006"},
	{Code: "ga", Name: "Gaeilge", DateLayout: "02/01/2006"},
	{Code: "hr", Name: "hrvatski", DateLayout: "02. 01. 2006."},
	{Code: "hu", Name: "magyar", DateLayout: "2006. 01. 02."},
	{Code: "it", Name: "italiano", DateLayout: "02/01/2006"},
	{Code: "lt", Name: "lietuvių", DateLayout: "2006-01-02"},
	{Code: "lv", Name: "latviešu", DateLayout: "02.01.2006."},
	{Code: "mt", Name: "Malti", DateLayout: "02/01/2006"},
	{Code: "nl", Name: "Nederlands", DateLayout: "02-01-2006"},
	{Code: "pl", Name: "polski", DateLayout: "02.01.2006"},
	{Code: "pt", Name: "português", DateLayout: "02/01/2006"},
	{Code: "ro", Name: "română", DateLayout: "02.01.2006"},
	{Code: "sk", Name: "slovenčina", DateLayout: "2. 1. 2006"},
	{Code: "sl", Name: "slovenščina", DateLayout: "2. 1. 2006"},
	{Code: "sv", Name: "svenska", DateLayout: "2006-01-02"},
}

// Source is the language the messages are written in.
const Source = "en"
