from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Export(BaseModel):
    export: "ExportExport"


class ExportExport(BaseModel):
    jsonl: str
    records: int
    sources: int
    total_sources: int = Field(alias="totalSources")
    end_cursor: Optional[str] = Field(alias="endCursor")


Export.model_rebuild()
