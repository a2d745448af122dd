/** The site's HTML template escapes every value it is given unless it is markup the template made. */
import { describe, expect, it } from 'vitest';
import { prose } from '../../site-builder/html/prose.js';
import { escapeText, html, joinHtml, jsonScript, trustedHtml } from '../../site-builder/html/template.js';

describe('html', () => {
  it.each([
    ['text', '<script>alert("x")</script>', '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>'],
    ['an ampersand and quotes', `Tom & "Jerry's"`, '<p>Tom &amp; &quot;Jerry&#39;s&quot;</p>'],
    ['a number', 42, '<p>42</p>'],
    ['nothing', undefined, '<p></p>'],
    ['false', false, '<p></p>'],
    ['a list of text and markup', ['<a>', html`<b>${'<b>'}</b>`], '<p>&lt;a&gt;<b>&lt;b&gt;</b></p>'],
  ])('escapes %s', (_name, value, want) => {
    expect(html`<p>${value}</p>`.markup).toBe(want);
  });

  it('escapes inside attribute values, so a value cannot leave its quotes', () => {
    expect(html`<a href="${'x" onclick="steal()'}">`.markup).toBe('<a href="x&quot; onclick=&quot;steal()">');
    expect(escapeText(`'`)).toBe('&#39;');
  });

  it('keeps markup made by the template or vouched for, and joins parts', () => {
    expect(html`<div>${trustedHtml('<svg></svg>')}</div>`.markup).toBe('<div><svg></svg></div>');
    expect(joinHtml(['a<', '', html`<i>b</i>`], ', ').markup).toBe('a&lt;, <i>b</i>');
  });

  it('writes JSON that no text can end the script element of', () => {
    expect(jsonScript('data', { text: '</script><script>alert(1)</script>' }).markup).toBe('<script type="application/json" id="data">{"text":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}</script>');
  });

  it('reads catalog text with `code` spans, escaping the rest', () => {
    expect(prose('a `b<c>` & d').markup).toBe('a <code>b&lt;c&gt;</code> &amp; d');
  });
});
