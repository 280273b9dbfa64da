"""The inline stylesheet and script of the HTML diff report (one self-contained file, no external assets).

The script: a verdict per change (accept, reject, look again) kept in the browser's localStorage under the
report's key and exported as JSON (downloaded, and shown to copy into a pull request); filter buttons by kind of change (`#only=removed` in the URL selects one), fold/unfold all
documents, and keyboard navigation between the changes shown: j = next, k = previous (a folded document
opens on the way), with the current change outlined and its position in `#nav-status`.
"""

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:10px 18px;z-index:2}
h1{font-size:18px;margin:0 0 6px}h2{font-size:15px;margin:0;display:inline}
.layout{display:flex;align-items:flex-start}
nav#doc-list{position:sticky;top:140px;width:260px;flex:none;padding:12px 0 12px 18px;font-size:13px;max-height:75vh;overflow:auto}
nav#doc-list ul{list-style:none;margin:6px 0;padding:0}nav#doc-list li{margin:2px 0}
nav#doc-list a{color:#1d1d1f;text-decoration:none}nav#doc-list a:hover{text-decoration:underline}
main{padding:12px 18px;flex:1;min-width:0}
.summary span{margin-right:14px}.muted{color:#777}
#pr-summary{user-select:all;background:#f3f3f3;border:1px solid #ddd;border-radius:4px;padding:2px 6px;display:inline-block}
button{border:1px solid #bbb;background:#f3f3f3;border-radius:14px;padding:3px 12px;margin-right:6px;cursor:pointer}
button.filter.active{background:#333;color:#fff;border-color:#333}
.verdict{margin-top:6px}.verdict button.v{font-size:11px;padding:1px 7px;margin:2px 2px 0 0;display:block}
.verdict button.v.on[data-v=accept]{background:#1a7f37;color:#fff;border-color:#1a7f37}
.verdict button.v.on[data-v=reject]{background:#b42318;color:#fff;border-color:#b42318}
.verdict button.v.on[data-v=look]{background:#b7791f;color:#fff;border-color:#b7791f}
tbody.chg[data-verdict=accept]>tr:first-child>td{background:#f0faf2}tbody.chg[data-verdict=reject]>tr:first-child>td{background:#fdf1f0}
#verdicts-json{display:block;width:100%;height:8em;font:12px ui-monospace,monospace;margin-top:4px}
#summary-box{margin:12px 0}.off{display:none}#summary-box>summary{cursor:pointer;color:#555}
details.doc{background:#fff;border:1px solid #ddd;border-radius:6px;margin:12px 0;padding:8px 12px}
details.doc>summary{cursor:pointer;padding:2px 0}
details.doc[hidden],tbody[hidden],div.group[hidden]{display:none}
.group{border-left:3px solid #e3e3e3;margin:12px 0;padding:2px 0 2px 10px}
.ctx-head{font-size:12.5px;color:#555;margin-bottom:4px}
blockquote{margin:4px 0;padding:2px 8px;border-left:3px solid #ccc;white-space:pre-wrap}
mark{padding:0 2px;border-radius:2px}
mark.removed,td.mark.removed{background:#ffd7d5}mark.added,td.mark.added{background:#c8f2d0}
mark.changed,td.mark.changed{background:#ffe9a8}mark.old{background:#ffd7d5}mark.new{background:#c8f2d0}
table{border-collapse:collapse;width:100%;table-layout:fixed}
td,th{border-top:1px solid #eee;padding:4px 8px;vertical-align:top;text-align:left}
table.ctx-table{table-layout:auto;width:auto;font-size:12.5px;margin:4px 0}
table.ctx-table td,table.ctx-table th{border:1px solid #e3e3e3;padding:2px 8px}
th.kind,td.kind{width:76px}
tbody.added td.kind{color:#12752b}tbody.removed td.kind{color:#b3261e}tbody.changed td.kind{color:#8a6100}
tbody.chg.current{outline:2px solid #2f6fde;outline-offset:-2px}
.quote{font-size:13px}.cell-place{font-size:12.5px;color:#444}
.label{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
del.hl{background:#ffd7d5;text-decoration:line-through}ins.hl{background:#c8f2d0;text-decoration:none}
ul.fields{margin:4px 0 0;padding-left:18px;font-size:12.5px}
table.conds{font-size:12.5px}table.conds td{border-top:1px dashed #eee}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
.summary table td{border:none;padding:1px 10px 1px 0}
kbd{border:1px solid #bbb;border-radius:3px;padding:0 4px;font-size:12px;background:#fff}
"""

JS = """
(function(){
  var rows=[].slice.call(document.querySelectorAll('tbody.chg'));
  var docs=[].slice.call(document.querySelectorAll('details.doc'));
  var groups=[].slice.call(document.querySelectorAll('div.group'));
  var buttons=[].slice.call(document.querySelectorAll('button.filter'));
  var status=document.getElementById('filter-status');
  var nav=document.getElementById('nav-status');
  var current=-1;
  function shown(){return rows.filter(function(r){return !r.hasAttribute('hidden');});}
  function apply(kind){
    var n=0;
    rows.forEach(function(r){var ok=kind==='all'||r.getAttribute('data-kind')===kind;
      if(ok){r.removeAttribute('hidden');n++;}else{r.setAttribute('hidden','');}});
    groups.forEach(function(g){var any=g.querySelectorAll('tbody.chg:not([hidden])').length>0;
      if(kind==='all'||any){g.removeAttribute('hidden');}else{g.setAttribute('hidden','');}});
    docs.forEach(function(s){var any=s.querySelectorAll('tbody.chg:not([hidden])').length>0;
      if(kind==='all'||any){s.removeAttribute('hidden');}else{s.setAttribute('hidden','');}});
    buttons.forEach(function(b){b.className='filter'+(b.getAttribute('data-filter')===kind?' active':'');});
    status.textContent='Showing '+n+' of '+rows.length+' claim changes ('+kind+')';
    document.body.setAttribute('data-filter',kind);
    select(-1);
  }
  function select(i){
    rows.forEach(function(r){r.classList.remove('current');});
    var list=shown();
    if(i<0||!list.length){current=-1;nav.textContent='j / k: next / previous change';
      document.body.removeAttribute('data-current');return;}
    current=Math.min(i,list.length-1);
    var r=list[current];
    var d=r.closest('details.doc');if(d&&!d.open){d.open=true;}
    r.classList.add('current');
    if(r.scrollIntoView){r.scrollIntoView({block:'center'});}
    nav.textContent='change '+(current+1)+' of '+list.length;
    document.body.setAttribute('data-current',r.id);
  }
  document.addEventListener('keydown',function(e){
    if(e.ctrlKey||e.metaKey||e.altKey){return;}
    var t=e.target&&e.target.tagName;if(t==='INPUT'||t==='TEXTAREA'||t==='SELECT'){return;}
    var n=shown().length;if(!n){return;}
    if(e.key==='j'){select(current<0?0:Math.min(current+1,n-1));e.preventDefault();}
    else if(e.key==='k'){select(current<0?0:Math.max(current-1,0));e.preventDefault();}
  });
  buttons.forEach(function(b){b.addEventListener('click',function(){apply(b.getAttribute('data-filter'));});});
  function foldAll(open){docs.forEach(function(d){d.open=open;});}
  var fold=document.getElementById('fold-all'),unfold=document.getElementById('unfold-all');
  if(fold){fold.addEventListener('click',function(){foldAll(false);});}
  if(unfold){unfold.addEventListener('click',function(){foldAll(true);});}
  [].slice.call(document.querySelectorAll('nav#doc-list a')).forEach(function(a){
    a.addEventListener('click',function(){var d=document.getElementById(a.getAttribute('href').slice(1));
      if(d){d.open=true;}});});
  var KEY='benchclaims-verdicts:'+document.body.getAttribute('data-report');
  var verdicts={};
  try{verdicts=JSON.parse(window.localStorage.getItem(KEY)||'{}')||{};}catch(e){verdicts={};}
  var vstatus=document.getElementById('verdict-status');
  function paint(){
    var n={accept:0,reject:0,look:0};
    rows.forEach(function(r){var v=verdicts[r.getAttribute('data-key')]||'';
      if(v){r.setAttribute('data-verdict',v);n[v]++;}else{r.removeAttribute('data-verdict');}
      [].slice.call(r.querySelectorAll('button.v')).forEach(function(b){
        b.classList.toggle('on',b.getAttribute('data-v')===v);});});
    if(vstatus){vstatus.textContent=(n.accept+n.reject+n.look)+' of '+rows.length+' judged: '+n.accept+' accepted, '
      +n.reject+' rejected, '+n.look+' to look at again (kept in this browser)';}
  }
  function save(){try{window.localStorage.setItem(KEY,JSON.stringify(verdicts));}catch(e){}}
  rows.forEach(function(r){[].slice.call(r.querySelectorAll('button.v')).forEach(function(b){
    b.addEventListener('click',function(){var k=r.getAttribute('data-key'),v=b.getAttribute('data-v');
      if(verdicts[k]===v){delete verdicts[k];}else{verdicts[k]=v;}save();paint();});});});
  function exported(){
    var list=rows.map(function(r){var p=r.getAttribute('data-key').split('|');
      return {doc:p[0],change:p[1],old_claim:p[2]||null,new_claim:p[3]||null,
              verdict:verdicts[r.getAttribute('data-key')]||null};});
    return JSON.stringify({report:document.body.getAttribute('data-report'),verdicts:list},null,1);
  }
  var exp=document.getElementById('export-verdicts');
  if(exp){exp.addEventListener('click',function(){
    var text=exported(),box=document.getElementById('verdicts-json');
    box.value=text;box.classList.remove('off');box.select();
    var a=document.getElementById('download-verdicts');
    try{a.href=URL.createObjectURL(new Blob([text],{type:'application/json'}));a.classList.remove('off');}catch(e){}
  });}
  paint();
  var m=/only=(added|removed|changed)/.exec(location.hash);
  apply(m?m[1]:'all');
  document.body.setAttribute('data-js','ready');
})();
"""
