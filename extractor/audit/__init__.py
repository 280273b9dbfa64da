"""The audit of one document: the load-condition checklist (text, Markdown, JSON) and the
interactive page (HTML) that shows every claim on the post's text with its record.

    from extractor.audit import build_audit, render_audit, render_audit_html
"""
from extractor.audit.checklist import AuditReport, build_audit
from extractor.audit.page import render_audit_html
from extractor.audit.text import render_audit

__all__ = ["AuditReport", "build_audit", "render_audit", "render_audit_html"]
