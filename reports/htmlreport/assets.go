package htmlreport

// styleSheet is the report's only style: system fonts, readable line
// length, tables with a sticky header, figures at their natural size
// (never shrunk until their legend is unreadable: a figure wider than the
// page scrolls sideways in its own box).
const styleSheet = `:root{--fg:#1b1b1b;--mute:#5a5a5a;--line:#d6d6d6;--bg2:#f5f5f3;--acc:#0b5cad;--warn:#8a4b00}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:0 1.25rem 4rem;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
h1{font-size:1.6rem;margin:1.2rem 0 .2rem}
h2{font-size:1.25rem;margin:1.8rem 0 .6rem;display:inline-block}
h4{margin:1rem 0 .3rem}
a{color:var(--acc)}
.sub{color:var(--mute);margin:0}
.headline{font-size:1.08rem;border-left:4px solid var(--acc);padding:.4rem .8rem;background:var(--bg2)}
.warnings{border-left:4px solid var(--warn);background:#fff6e8;padding:.4rem .8rem;margin:.6rem 0}
.warnings ul{margin:.2rem 0 0;padding-left:1.2rem}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.92rem}
section{border-top:1px solid var(--line)}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.88rem;font-variant-numeric:tabular-nums}
caption{text-align:left;color:var(--mute);padding-bottom:.3rem}
th,td{padding:.25rem .55rem;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{background:var(--bg2);position:sticky;top:0}
td{white-space:normal;min-width:3rem}
.num,td.num{text-align:right;white-space:nowrap}
.js th{cursor:pointer;user-select:none}
.js th::after{content:" \2195";color:#aaa;font-size:.8em}
th[aria-sort=ascending]::after{content:" \25B2";color:var(--fg)}
th[aria-sort=descending]::after{content:" \25BC";color:var(--fg)}
tbody tr:hover{background:#eef4fb}
figure{margin:1rem 0;max-width:100%;overflow-x:auto}
figure svg{display:block;max-width:none;flex:none}
figcaption{color:var(--mute);font-size:.88rem}
.marks rect{fill:transparent;stroke:none}
.marks a rect:hover,.marks rect:hover{fill:rgba(11,92,173,.12)}
.formula{background:var(--bg2);padding:.5rem .8rem;margin:.6rem 0;border-radius:4px}
.code{display:flex;align-items:baseline;gap:.6rem;margin:.25rem 0}
.code .kind{color:var(--mute);min-width:3.5rem;font-size:.85rem}
.code code{font:14px/1.4 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere;flex:1}
button.copy{display:none;font-size:.8rem;padding:.1rem .5rem}
.js button.copy{display:inline-block}
.note{color:var(--mute);font-size:.88rem;margin:.2rem 0}
pre{background:var(--bg2);padding:.6rem;overflow-x:auto;font-size:.82rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;font-size:.9rem}
dt{color:var(--mute)}
dd{margin:0;overflow-wrap:anywhere}
details{margin:.4rem 0}
details>summary{cursor:pointer}
details details{border-left:3px solid var(--line);padding-left:.8rem}
details details>summary{font-weight:600}
ul.links{columns:3 14rem;font-size:.92rem}
@media print{nav,button.copy{display:none!important}details{display:block}}
`

// script makes tables sortable by a click (or Enter) on a header, wires
// the copy buttons and opens the <details> an anchor points into. Without
// it the page is complete, only static.
const script = `(function(){
"use strict";
var doc=document;
doc.documentElement.className+=" js";
function each(list,f){Array.prototype.forEach.call(list,f);}
function sortKey(cell,numeric){
  if(!cell){return numeric?NaN:"";}
  if(numeric){var v=cell.getAttribute("data-v");return v===null?NaN:parseFloat(v);}
  return cell.textContent;
}
function sortTable(table,col,th){
  var numeric=th.hasAttribute("data-num");
  var dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
  each(th.parentNode.cells,function(c){c.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",dir===1?"ascending":"descending");
  var body=table.tBodies[0];
  var rows=Array.prototype.slice.call(body.rows);
  var keys=rows.map(function(r,i){return {row:r,i:i,k:sortKey(r.cells[col],numeric)};});
  keys.sort(function(a,b){
    var c;
    if(numeric){
      var an=isNaN(a.k),bn=isNaN(b.k);
      if(an||bn){c=an===bn?0:(an?1:-1);return c||a.i-b.i;}
      c=a.k<b.k?-1:(a.k>b.k?1:0);
    }else{c=a.k.localeCompare(b.k);}
    return c*dir||a.i-b.i;
  });
  keys.forEach(function(k){body.appendChild(k.row);});
}
each(doc.querySelectorAll("table.sortable"),function(table){
  if(!table.tHead||!table.tBodies.length){return;}
  each(table.tHead.rows[0].cells,function(th,col){
    th.tabIndex=0;
    th.addEventListener("click",function(){sortTable(table,col,th);});
    th.addEventListener("keydown",function(e){if(e.key==="Enter"||e.key===" "){e.preventDefault();sortTable(table,col,th);}});
  });
});
function selectText(el){
  var r=doc.createRange();r.selectNodeContents(el);
  var s=window.getSelection();s.removeAllRanges();s.addRange(r);
}
each(doc.querySelectorAll("button.copy"),function(b){
  b.addEventListener("click",function(){
    var el=doc.getElementById(b.getAttribute("data-target"));
    if(!el){return;}
    function show(t){b.textContent=t;setTimeout(function(){b.textContent="copy";},1500);}
    function fallback(){selectText(el);show("selected: press Ctrl+C");}
    if(navigator.clipboard&&navigator.clipboard.writeText){
      navigator.clipboard.writeText(el.textContent).then(function(){show("copied");},fallback);
    }else{fallback();}
  });
});
function openID(id){
  var el=id&&doc.getElementById(id);
  for(;el;el=el.parentElement){if(el.tagName==="DETAILS"){el.open=true;}}
}
function openTarget(){
  try{openID(decodeURIComponent(location.hash.slice(1)));}catch(e){}
}
each(doc.querySelectorAll('a[href^="#"]'),function(a){
  a.addEventListener("click",function(){openID(a.getAttribute("href").slice(1));});
});
window.addEventListener("hashchange",openTarget);
openTarget();
})();
`
