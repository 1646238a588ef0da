from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel
from .fragments import ProfileFactFields


class Profile(BaseModel):
    profile: Union["ProfileProfileProfile", "ProfileProfileInvalidInput"] = Field(
        discriminator="typename__"
    )


class ProfileProfileProfile(BaseModel):
    typename__: Literal["Profile"] = Field(alias="__typename")
    user: str
    truncated: bool
    subjects: list["ProfileProfileProfileSubjects"]


class ProfileProfileProfileSubjects(BaseModel):
    subject: str
    facts: int
    slots: list["ProfileProfileProfileSubjectsSlots"]


class ProfileProfileProfileSubjectsSlots(BaseModel):
    subject: str
    slot: str
    current: Optional["ProfileProfileProfileSubjectsSlotsCurrent"]
    also_current: list["ProfileProfileProfileSubjectsSlotsAlsoCurrent"] = Field(
        alias="alsoCurrent"
    )
    history: list["ProfileProfileProfileSubjectsSlotsHistory"]


ProfileProfileProfileSubjectsSlotsCurrent = ProfileFactFields
ProfileProfileProfileSubjectsSlotsAlsoCurrent = ProfileFactFields
ProfileProfileProfileSubjectsSlotsHistory = ProfileFactFields


class ProfileProfileInvalidInput(BaseModel):
    typename__: Literal["InvalidInput"] = Field(alias="__typename")
    message: str
    problems: list[str]


Profile.model_rebuild()
ProfileProfileProfile.model_rebuild()
ProfileProfileProfileSubjects.model_rebuild()
ProfileProfileProfileSubjectsSlots.model_rebuild()
