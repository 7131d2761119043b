package main

// The docs generator writes the Registry's Hugo pages: Markdown carrying the site's own HTML (a
// language chooser of <pulumi-choosable> elements, property lists as <dl>, signatures as highlighted
// <pre> blocks, headings with Hugo's {#id}). GitHub shows that HTML as noise around a wall of tags,
// so toMarkdown rewrites each page as plain Markdown that reads on GitHub with the same content:
// each language's part in a <details> block named after the language, property lists as Markdown
// lists, signatures as fenced code, headings without {#id} (links to them rewritten to GitHub's
// anchors), site links absolute. Fenced code already in the page (the schema's examples, the import
// commands) is copied byte for byte.

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// siteRoot is where the Registry's site-relative links (/docs/…) lead.
const siteRoot = "https://www.pulumi.com"

// languageNames are the chooser's language keys as a reader names them.
var languageNames = map[string]string{
	"csharp": "C#", "go": "Go", "java": "Java", "javascript": "JavaScript", "python": "Python", "typescript": "TypeScript", "yaml": "YAML",
}

var (
	hugoHeading = regexp.MustCompile(`(?m)^(#{1,6}) (.+?) \{#([\w-]+)\}[ \t]*$`)
	blankLines  = regexp.MustCompile(`\n{3,}`)
	spaces      = regexp.MustCompile(`\s+`)
)

// slug is GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// languages turns a choosable's `values` ("javascript,typescript") into a label ("JavaScript, TypeScript").
func languages(values string) string {
	var out []string
	for _, v := range strings.Split(values, ",") {
		if name, ok := languageNames[v]; ok {
			out = append(out, name)
		} else {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}

func attr(t html.Token, name string) string {
	for _, a := range t.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// converter holds the state of one page's conversion.
type converter struct {
	out     bytes.Buffer
	anchors map[string]string // Hugo id → GitHub anchor
	enums   []string          // every enum value of the schema, longest first

	choosables []bool // open <pulumi-choosable>s: true for an inline one

	code     *strings.Builder // the text of an open <pre>
	codeLang string

	inline    *strings.Builder // the Markdown of an open dt, dd, heading or li
	inlineTag string
	inCode    bool             // inside an inline <code>
	links     []string         // hrefs of open <a>s ("" for a link dropped)
	dlClass   []string         // classes of open <dl>s
	lists     int              // open <ul>s
	heading   string           // "##" or "####" while a heading is open
	alsoNames string           // an inline choosable's names in a heading ("Python, Go: `CredentialsArgs`")
	outer     *strings.Builder // the heading's text while an inline choosable in it is read

	// The term of the <dt> being read: a property's name, type and whether it is required.
	term     string
	termType string
	required bool
	spanRole []string // roles of open <span>s in a dt: "name", "type" or ""
}

// href rewrites a link for GitHub: site links absolute, Hugo anchors as GitHub's, a page folder as
// its _index.md.
func (c *converter) href(link string) string {
	switch {
	case strings.HasPrefix(link, "/"):
		return siteRoot + link
	case strings.HasPrefix(link, "#"):
		if a, ok := c.anchors[link[1:]]; ok {
			return "#" + a
		}
		return link
	case strings.HasSuffix(link, "/") && !strings.Contains(link, "://"):
		return link + "_index.md"
	}
	return link
}

// text is a piece of Markdown outside any captured element: headings lose their {#id}, the
// generator's escaped blockquotes become blockquotes, and Markdown links are rewritten.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func (c *converter) text(s string) {
	s = hugoHeading.ReplaceAllString(s, "$1 $2")
	s = strings.ReplaceAll(s, "\n&gt; ", "\n> ")
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string { return "](" + c.href(m[2:len(m)-1]) + ")" })
	c.out.WriteString(s)
}

func (c *converter) startInline(tag string) {
	c.inline = &strings.Builder{}
	c.inlineTag = tag
}

// endInline returns the captured Markdown on one line.
func (c *converter) endInline() string {
	s := strings.TrimSpace(spaces.ReplaceAllString(c.inline.String(), " "))
	c.inline = nil
	c.inlineTag = ""
	return s
}

// enumEntry splits an enum's <dd> ("SMART_TVA smart TV.": the value, then its description) at the
// longest enum value it starts with.
func (c *converter) enumEntry(dd string) (string, string) {
	for _, v := range c.enums {
		if escaped := html.EscapeString(v); strings.HasPrefix(dd, escaped) {
			return v, strings.TrimSpace(dd[len(escaped):])
		}
	}
	return "", dd
}

func (c *converter) token(z *html.Tokenizer, tt html.TokenType) {
	raw := string(z.Raw())
	switch tt {
	case html.TextToken:
		switch {
		case c.code != nil:
			c.code.WriteString(html.UnescapeString(raw))
		case c.inline != nil && c.inCode:
			c.inline.WriteString(html.UnescapeString(raw))
		case c.inline != nil:
			c.inline.WriteString(raw)
		case (len(c.dlClass) > 0 || c.lists > 0) && strings.TrimSpace(raw) == "":
			// The indentation between list entries would make the next entry a code block.
		default:
			c.text(raw)
		}
		return
	case html.CommentToken:
		if c.code == nil && c.inline == nil {
			c.out.WriteString(raw)
		}
		return
	case html.DoctypeToken, html.ErrorToken:
		return
	}
	t := z.Token()
	start := tt == html.StartTagToken || tt == html.SelfClosingTagToken
	if c.code != nil && t.Data != "pre" {
		if t.Data == "code" && start {
			c.codeLang = strings.TrimPrefix(attr(t, "class"), "language-")
		}
		return
	}
	switch t.Data {
	case "wbr", "div", "pulumi-examples", "pulumi-chooser":
	case "pulumi-choosable":
		if start {
			inline := attr(t, "class") == "inline"
			c.choosables = append(c.choosables, inline)
			if inline {
				c.alsoNames = languages(attr(t, "values")) + ": also"
				c.outer = c.inline
				c.inline = &strings.Builder{}
			} else {
				fmt.Fprintf(&c.out, "\n\n<details>\n<summary>%s</summary>\n\n", languages(attr(t, "values")))
			}
			return
		}
		if n := len(c.choosables); n > 0 {
			inline := c.choosables[n-1]
			c.choosables = c.choosables[:n-1]
			if inline {
				names := strings.TrimPrefix(strings.TrimSpace(spaces.ReplaceAllString(c.inline.String(), " ")), ", ")
				c.alsoNames += " `" + html.UnescapeString(names) + "`"
				c.inline, c.outer = c.outer, nil
			} else {
				c.out.WriteString("\n\n</details>\n\n")
			}
		}
	case "pre":
		if start {
			c.code = &strings.Builder{}
			c.codeLang = ""
			return
		}
		code := strings.Trim(strings.ReplaceAll(c.code.String(), "\u00a0", " "), "\n")
		fmt.Fprintf(&c.out, "\n\n```%s\n%s\n```\n\n", c.codeLang, code)
		c.code = nil
	case "h2", "h4":
		if start {
			c.heading = strings.Repeat("#", int(t.Data[1]-'0'))
			c.startInline(t.Data)
			return
		}
		title := c.endInline()
		fmt.Fprintf(&c.out, "\n\n%s %s\n\n", c.heading, title)
		if c.alsoNames != "" {
			fmt.Fprintf(&c.out, "%s\n\n", c.alsoNames)
		}
		c.heading, c.alsoNames = "", ""
	case "dl":
		if start {
			c.dlClass = append(c.dlClass, attr(t, "class"))
			c.out.WriteString("\n\n")
		} else if n := len(c.dlClass); n > 0 {
			c.dlClass = c.dlClass[:n-1]
			c.out.WriteString("\n\n")
		}
	case "dt":
		if start {
			c.term, c.termType, c.required = "", "", strings.Contains(attr(t, "class"), "property-required")
			c.spanRole = nil
			c.startInline("dt")
			return
		}
		rest := c.endInline()
		if c.term == "" {
			c.term = rest
		}
	case "dd":
		if start {
			c.startInline("dd")
			return
		}
		c.item(c.endInline())
	case "span":
		if c.inlineTag != "dt" {
			return
		}
		if start {
			role := ""
			switch attr(t, "class") {
			case "":
				role = "name"
			case "property-type":
				role = "type"
			}
			c.spanRole = append(c.spanRole, role)
			if role != "" {
				c.inline.Reset()
			}
			return
		}
		if n := len(c.spanRole); n > 0 {
			role := c.spanRole[n-1]
			c.spanRole = c.spanRole[:n-1]
			captured := strings.TrimSpace(spaces.ReplaceAllString(c.inline.String(), " "))
			switch role {
			case "name":
				c.term = captured
			case "type":
				c.termType = captured
			}
			if role != "" {
				c.inline.Reset()
			}
		}
	case "ul":
		if start {
			c.lists++
		} else {
			c.lists--
		}
		c.out.WriteString("\n\n")
	case "li":
		if start {
			c.startInline("li")
			return
		}
		fmt.Fprintf(&c.out, "- %s\n", c.endInline())
	case "p":
		switch {
		case c.inlineTag == "p" && !start:
			fmt.Fprintf(&c.out, "\n\n%s\n\n", c.endInline())
		case c.inline != nil:
			c.inline.WriteString(" ")
		case start:
			c.startInline("p")
		}
	case "code":
		if c.inline != nil {
			c.inline.WriteString("`")
			c.inCode = start
		}
	case "a":
		if c.inline == nil {
			return
		}
		if start {
			link := attr(t, "href")
			// A property's name links to itself on the site; on GitHub it is plain text.
			if attr(t, "data-swiftype-name") != "" || link == "" {
				link = ""
			} else {
				c.inline.WriteString("[")
			}
			c.links = append(c.links, link)
			return
		}
		if n := len(c.links); n > 0 {
			link := c.links[n-1]
			c.links = c.links[:n-1]
			if link != "" {
				fmt.Fprintf(c.inline, "](%s)", c.href(link))
			}
		}
	case "em", "i":
		if c.inline != nil {
			c.inline.WriteString("*")
		}
	case "strong", "b":
		if c.inline != nil {
			c.inline.WriteString("**")
		}
	case "br":
		if c.inline != nil {
			c.inline.WriteString(" ")
		}
	default:
		panic(fmt.Sprintf("the docs generator wrote a <%s> that toMarkdown does not know", t.Data))
	}
}

// item writes one entry of a <dl>: a property, an enum value or a package detail.
func (c *converter) item(dd string) {
	class := ""
	if n := len(c.dlClass); n > 0 {
		class = c.dlClass[n-1]
	}
	switch class {
	case "tabular":
		value, description := c.enumEntry(dd)
		fmt.Fprintf(&c.out, "- `%s` = `%q`", html.UnescapeString(c.term), value)
		if description != "" {
			fmt.Fprintf(&c.out, ": %s", description)
		}
		c.out.WriteString("\n")
	case "package-details":
		fmt.Fprintf(&c.out, "- **%s**: %s\n", c.term, dd)
	default:
		typ := c.termType
		if typ != "" && !strings.HasPrefix(typ, "[") {
			typ = "`" + html.UnescapeString(typ) + "`"
		} else if strings.HasPrefix(typ, "[") {
			// A linked type: [Pulumi.DnsAccount.Inputs.Credentials](#credentials), its text as code.
			if i := strings.Index(typ, "]("); i > 0 {
				typ = "[`" + html.UnescapeString(typ[1:i]) + "`" + typ[i:]
			}
		}
		fmt.Fprintf(&c.out, "- **`%s`**", html.UnescapeString(c.term))
		switch {
		case typ != "" && c.required:
			fmt.Fprintf(&c.out, " (%s, required)", typ)
		case typ != "":
			fmt.Fprintf(&c.out, " (%s)", typ)
		case c.required:
			c.out.WriteString(" (required)")
		}
		if dd != "" {
			fmt.Fprintf(&c.out, ": %s", dd)
		}
		c.out.WriteString("\n")
	}
}

// toMarkdown rewrites one generated page as GitHub Markdown (see the file's comment). enumValues are
// the schema's enum values, which the generator writes run together with their descriptions.
func toMarkdown(page []byte, enumValues []string) ([]byte, error) {
	c := &converter{anchors: map[string]string{}}
	c.enums = append(c.enums, enumValues...)
	sort.Slice(c.enums, func(i, j int) bool { return len(c.enums[i]) > len(c.enums[j]) })
	text := string(page)
	for _, m := range hugoHeading.FindAllStringSubmatch(text, -1) {
		c.anchors[m[3]] = slug(m[2])
	}
	// The front matter stays as it is (GitHub shows it as a table; the Registry reads it).
	front := ""
	if strings.HasPrefix(text, "---\n") {
		if end := strings.Index(text[4:], "\n---\n"); end >= 0 {
			front, text = text[:4+end+5], text[4+end+5:]
		}
	}
	c.out.WriteString(front)
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		// Fenced code goes through untouched; the rest is read as HTML tokens with Markdown text between.
		lines := strings.SplitAfter(text, "\n")
		var chunk strings.Builder
		flush := func() {
			z := html.NewTokenizer(strings.NewReader(chunk.String()))
			for {
				tt := z.Next()
				if tt == html.ErrorToken {
					break
				}
				c.token(z, tt)
			}
			chunk.Reset()
		}
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "```") || c.code != nil || c.inline != nil {
				chunk.WriteString(lines[i])
				continue
			}
			flush()
			c.out.WriteString("\n" + lines[i])
			for i++; i < len(lines); i++ {
				c.out.WriteString(lines[i])
				if strings.HasPrefix(lines[i], "```") {
					break
				}
			}
		}
		flush()
	}()
	if err != nil {
		return nil, err
	}
	if c.code != nil || c.inline != nil || len(c.choosables) > 0 || len(c.dlClass) > 0 {
		return nil, fmt.Errorf("an element was left open")
	}
	return tidy(c.out.String()), nil
}

// tidy collapses runs of blank lines outside fenced code and trims trailing spaces there.
func tidy(s string) []byte {
	var out strings.Builder
	lines := strings.SplitAfter(s, "\n")
	fenced := false
	var prose strings.Builder
	flush := func() {
		p := prose.String()
		var trimmed strings.Builder
		for _, l := range strings.SplitAfter(p, "\n") {
			if strings.HasSuffix(l, "\n") {
				trimmed.WriteString(strings.TrimRight(l, " \t\n") + "\n")
			} else {
				trimmed.WriteString(strings.TrimRight(l, " \t"))
			}
		}
		out.WriteString(blankLines.ReplaceAllString(trimmed.String(), "\n\n"))
		prose.Reset()
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "```") {
			// The fence lines count as prose, so blank lines around them collapse too.
			prose.WriteString(l)
			if !fenced {
				flush()
			}
			fenced = !fenced
			continue
		}
		if fenced {
			out.WriteString(l)
		} else {
			prose.WriteString(l)
		}
	}
	flush()
	return []byte(strings.TrimLeft(strings.TrimRight(out.String(), "\n"), "\n") + "\n")
}
