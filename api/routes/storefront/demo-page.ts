export interface DemoPageInput {
  app: string;
  key: string;
  lang: 'en' | 'ar';
  hits: number;
  version: string | null;
}

const TEXT = {
  en: { title: 'Demo store', other: 'العربية', note: 'A storefront page with one script tag: the search widget of this service.' },
  ar: { title: 'متجر تجريبي', other: 'English', note: 'صفحة متجر بوسم سكربت واحد: أداة البحث لهذه الخدمة.' },
};

/** The demo storefront: a plain shop page whose only search code is the widget's script tag. Inputs are validated by the route (ids and keys are [A-Za-z0-9_-], safe in HTML and URLs). */
export function demoPage(p: DemoPageInput): string {
  const t = TEXT[p.lang];
  const other = p.lang === 'ar' ? 'en' : 'ar';
  const otherUrl = `/demo?app=${p.app}&key=${p.key}&lang=${other}&hits=${p.hits}`;
  return `<!doctype html>
<html lang="${p.lang}" dir="${p.lang === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style>body{margin:0;font-family:system-ui,Tahoma,sans-serif;background:#fafbfc}header{display:flex;justify-content:space-between;align-items:center;padding:14px 28px;background:#12263a;color:#fff}header a{color:#cfe3ff}main{max-width:1180px;margin:24px auto;padding:0 20px}.note{color:#5f6b7a;font-size:14px}</style>
</head>
<body>
<header><strong>${t.title}</strong><a href="${otherUrl}">${t.other}</a></header>
<main>
<p class="note">${t.note}</p>
<div id="search"></div>
<script src="/widget.js${p.version ? `?v=${p.version}` : ''}" data-app-id="${p.app}" data-api-key="${p.key}" data-lang="${p.lang}" data-hits-per-page="${p.hits}" data-target="#search" defer></script>
</main>
</body>
</html>
`;
}
